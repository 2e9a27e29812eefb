/* eslint-disable @n8n/community-nodes/no-restricted-globals -- sandbox/test code runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/require-node-api-error -- a server outside n8n: plain errors */
/** POST /v1/extract: a multipart upload with the file in `file` (docs/spec-decisions.md#d1), answered per the document's first state. */
import { TIERS } from '../config.ts';
import { decide, startProcessing } from '../documents.ts';
import { documentKind, extract } from '../extraction.ts';
import { isHttpsUrl } from '../http.ts';
import { newId } from '../ids.ts';
import {
	boundaryOf,
	MalformedMultipartError,
	readMultipart,
	UploadLimitError,
	type ParsedForm,
} from '../multipart.ts';
import type { SandboxState } from '../state.ts';
import type { DocumentRecord } from '../store.ts';
import { answer, refuse, type AccountCall } from './call.ts';

/** JSON and CSV are parsed only up to this size; larger ones are read as opaque files. */
const KEEP_CONTENT_BYTES = 8 * 1024 * 1024;

/**
 * Answers 413 before the rest of the upload arrives (it stays unread) and closes the connection a
 * moment later. Ending the answer at once would make Node close a socket with unread data, and the
 * reset could reach a client that is still sending before it read the 413.
 */
function refuseTooLarge({ response, account, headers }: AccountCall): void {
	const maxFileBytes = TIERS[account.tier].maxFileBytes;
	const text = JSON.stringify({
		success: false,
		error: {
			code: 'file_too_large',
			message: `The file exceeds the ${maxFileBytes / 1048576} MB limit of the ${account.tier} tier.`,
		},
	});
	response.writeHead(413, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
		...headers,
		connection: 'close',
	});
	response.write(text);
	setTimeout(() => response.end(), 1000).unref();
}

/** The service extracts during the upload request: the answer comes after the extraction's time. */
async function extractionLatency(state: SandboxState): Promise<void> {
	const { extractLatencyMinMs: min, extractLatencyMaxMs: max } = state.settings;
	const latencyMs = min + Math.random() * Math.max(0, max - min);
	if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
}

export async function handleExtract(call: AccountCall): Promise<void> {
	const { counts } = call.state;
	counts.extractRequests++;
	counts.extractInFlight++;
	counts.extractInFlightMost = Math.max(counts.extractInFlightMost, counts.extractInFlight);
	try {
		await answerExtract(call);
	} finally {
		counts.extractInFlight--;
	}
}

async function answerExtract(call: AccountCall): Promise<void> {
	const { state, request, account } = call;
	const boundary = boundaryOf(request.headers['content-type']);
	if (!boundary)
		return refuse(
			call,
			400,
			'invalid_body',
			'Send the document as multipart/form-data with the file in the field "file".',
		);
	let form: ParsedForm;
	try {
		form = await readMultipart(request, boundary, {
			maxFileBytes: TIERS[account.tier].maxFileBytes,
			keepContentBytes: KEEP_CONTENT_BYTES,
		});
	} catch (error) {
		if (error instanceof UploadLimitError) return refuseTooLarge(call);
		if (error instanceof MalformedMultipartError)
			return refuse(
				call,
				400,
				'invalid_body',
				`The multipart body is malformed: ${error.message}.`,
			);
		throw error;
	}
	const files = form.files.filter((file) => file.fieldName === 'file');
	if (files.length !== 1)
		return refuse(
			call,
			400,
			'missing_file',
			files.length === 0
				? 'The field "file" with the document is missing.'
				: 'Send exactly one file in the field "file".',
		);
	const [file] = files;
	const webhookUrl = form.fields.webhook_url?.trim() || undefined;
	if (webhookUrl !== undefined && !isHttpsUrl(webhookUrl))
		return refuse(
			call,
			400,
			'invalid_webhook_url',
			'webhook_url must be an absolute https:// URL.',
		);
	const kind = documentKind(file.fileName, file.contentType);
	if (!kind)
		return refuse(call, 400, 'unsupported_type', 'Supported types: PDF, JPG, PNG, JSON, CSV.');
	if (file.size === 0) return refuse(call, 400, 'empty_file', 'The file is empty.');

	await extractionLatency(state);
	const result = extract(kind, file);
	const document: DocumentRecord = {
		id: newId('doc'),
		accountId: account.id,
		state: 'processing',
		confidence:
			state.control.nextConfidence.shift() ?? result.requestedConfidence ?? result.hashConfidence,
		// A queued extraction lets two different files (a PDF and a scan) carry the same invoice.
		data: state.control.nextExtraction.shift() ?? result.data,
		webhookUrl,
		fileName: file.fileName,
		kind,
		size: file.size,
		sha256: file.sha256,
		createdAt: new Date().toISOString(),
	};
	state.store.documents.set(document.id, document);
	const forcedProcessing = state.control.nextStatus.shift() === 'processing';
	if (forcedProcessing || !document.data || file.size > state.settings.processingThresholdBytes) {
		startProcessing(state, document);
	} else {
		decide(state, document);
	}
	state.store.save();
	state.log({
		kind: 'document',
		document_id: document.id,
		account: account.id,
		file_kind: kind,
		size: file.size,
		state: document.state,
		confidence: document.confidence,
	});

	answer(call, firstAnswer(document));
}

/** The upload's answer for the document's first state. */
function firstAnswer(document: DocumentRecord) {
	const { state, confidence, id } = document;
	if (state === 'verified')
		return {
			success: true,
			status: state,
			confidence,
			document_id: id,
			extracted_json: document.data,
			verified_by: 'ai_auto',
		};
	if (state === 'needs_review')
		return {
			success: true,
			status: state,
			confidence,
			document_id: id,
			review_id: document.reviewId,
		};
	return { success: true, status: 'processing', document_id: id };
}
