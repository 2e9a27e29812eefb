/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up test signing secret, never a real one */
/**
 * The review callback of Wait for Review (the node's webhook() while an execution waits), with a
 * minimal webhook context: what resumes the execution (a signed result for the awaited document)
 * and what keeps it waiting (anything else), with the answer each gets. The same callback runs in a
 * real n8n in test/e2e/wait-for-review.test.ts.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { DocumentExtraction } from '../../../../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import { NODE_TYPES } from '../../../../harness/nodeTypes.ts';
import { computeSignature } from '../../../../../../nodes/DocumentExtraction/delivery/signedDelivery.ts';
import {
	credentialData,
	fakeNode,
	recordingResponse,
	silentLogger,
} from '../../../../harness/fakeHookContext.ts';

const SECRET = 'whsec_UNITTEST_callback_0123456789abcdef';
const AWAITED = 'doc_awaited01';

const EXTRACTED = {
	header: { vendor: 'Globex', date: '2024-05-02', invoice_no: 'G-77' },
	amounts: { subtotal: 100, tax: 20, total: 120 },
	line_items: [{ description: 'Widget', quantity: 4, unit_price: 25, amount: 100 }],
};

/** A minute ago: inside the replay window (N41) whenever the tests run. */
const SIGNED_AT = new Date(Date.now() - 60_000).toISOString();

const verifiedEvent = (documentId = AWAITED) => ({
	event: 'document.verified',
	timestamp: SIGNED_AT,
	document_id: documentId,
	review_id: 'rev_1',
	verified_by: 'human_reviewer',
	corrections_made: true,
	data: EXTRACTED,
	confidence: { original: 0.71, final: 0.99 },
});

const rejectedEvent = {
	event: 'document.rejected',
	timestamp: SIGNED_AT,
	document_id: AWAITED,
	review_id: 'rev_1',
	rejected_by: 'human_reviewer',
	reason: 'Illegible total',
	confidence: { original: 0.71 },
};

interface Call {
	body: string | Buffer;
	signature?: string;
	secret?: string;
	awaited?: string;
	parameters?: Record<string, unknown>;
	/** More fields of the credential (the previous signing secret, N68). */
	credential?: IDataObject;
}

async function deliver(call: Call) {
	const { answer, response } = recordingResponse();
	const rawBody = Buffer.isBuffer(call.body) ? call.body : Buffer.from(call.body);
	const headers: Record<string, string> =
		call.signature === undefined ? {} : { 'X-Service-Signature': call.signature };
	const expressions: string[] = [];
	const warnings: string[] = [];
	const context = {
		getRequestObject: () => ({ rawBody, readRawBody: async () => undefined }),
		getResponseObject: () => response,
		getHeaderData: () => headers,
		getCredentials: async () => ({ ...credentialData(call.secret ?? SECRET), ...call.credential }),
		getNodeParameter: (name: string, fallback: unknown) => {
			if (name === 'awaitedDocument') {
				expressions.push(String(fallback));
				return call.awaited ?? AWAITED;
			}
			// The callback exists only for a node with Wait for Review on.
			const parameters: IDataObject = { waitForReview: true, ...call.parameters };
			return name in parameters ? parameters[name] : fallback;
		},
		getNode: () =>
			fakeNode({ id: 'n', name: 'Wait for "review"', type: NODE_TYPES.action, typeVersion: 1 }),
		logger: { ...silentLogger(), warn: (message: string) => warnings.push(message) },
	} as unknown as IWebhookFunctions;
	const result = await new DocumentExtraction().webhook.call(context);
	return { result, answer, expressions, warnings };
}

const signed = (payload: unknown, secret = SECRET) => {
	const body = JSON.stringify(payload);
	return { body, signature: computeSignature(body, secret) };
};

describe('Wait for Review: the review callback', () => {
	it('a signed approval of the awaited document resumes on Verified with the reviewed data', async () => {
		const { result, answer, expressions } = await deliver(signed(verifiedEvent()));
		expect(answer).toEqual({ status: 200, body: { received: true, resumed: true } });
		expect(result.noWebhookResponse).toBe(true);
		const [verified, rejected, timedOut] = result.workflowData!;
		expect(rejected).toEqual([]);
		expect(timedOut).toEqual([]);
		expect(verified).toHaveLength(1);
		expect(verified[0].pairedItem).toEqual({ item: 0 });
		expect(verified[0].json).toMatchObject({
			document_id: AWAITED,
			status: 'verified',
			verified_by: 'human_reviewer',
			corrections_made: true,
			confidence: 0.99,
			vendor: 'Globex',
			total: 120,
			checks: { all_passed: true },
		});
		expect(expressions).toEqual([
			'={{ $node["Wait for \\"review\\""].context["documentExtractionAwaiting"] ?? "" }}',
		]);
	});

	it("the waiting item's file (Extract 1.2 keeps it in the node's context) comes back on the result; none when none was kept", async () => {
		const file = {
			data: { fileName: 'acme.pdf', mimeType: 'application/pdf', data: '', id: 'filesystem-v2:x' },
		};
		const kept = await deliver({ ...signed(verifiedEvent()), parameters: { awaitedFile: file } });
		const verified = (kept.result.workflowData ?? []).flat();
		expect(verified[0].binary).toEqual(file);
		const none = await deliver(signed(verifiedEvent()));
		expect((none.result.workflowData ?? []).flat()[0].binary).toBeUndefined();
	});

	it('a signed rejection resumes on Rejected with the reason', async () => {
		const { result, answer } = await deliver(signed(rejectedEvent));
		expect(answer.status).toBe(200);
		const [verified, rejected, timedOut] = result.workflowData!;
		expect(verified).toEqual([]);
		expect(timedOut).toEqual([]);
		expect(rejected.map((item) => item.json)).toEqual([
			expect.objectContaining({
				document_id: AWAITED,
				status: 'rejected',
				rejection_reason: 'Illegible total',
				vendor: null,
			}),
		]);
	});

	it('with the duplicate guard on, the result has one more (empty) output', async () => {
		const { result } = await deliver({
			...signed(verifiedEvent()),
			parameters: { options: { skipDuplicates: true } },
		});
		expect(result.workflowData!.map((output) => output.length)).toEqual([1, 0, 0, 0]);
	});

	it('Hold Invoices Not Ready to Post: an approved invoice that is not ready resumes on Not Ready to Post (last), a ready one on Verified', async () => {
		const notReady = {
			...verifiedEvent(),
			data: { ...EXTRACTED, amounts: { ...EXTRACTED.amounts, total: '1.200,00' } },
		};
		const held = await deliver({ ...signed(notReady), parameters: { holdNotReady: true } });
		expect(held.answer.body).toEqual({ received: true, resumed: true });
		expect(held.result.workflowData!.map((items) => items.length)).toEqual([0, 0, 0, 1]);
		expect(held.result.workflowData![3][0]).toMatchObject({
			json: {
				status: 'verified',
				total: null,
				ready_to_post: false,
				not_ready_because: [expect.stringMatching(/total "1\.200,00" could not be read/)],
			},
			pairedItem: { item: 0 },
		});

		const ready = await deliver({ ...signed(verifiedEvent()), parameters: { holdNotReady: true } });
		expect(ready.result.workflowData!.map((items) => items.length)).toEqual([1, 0, 0, 0]);
		expect(ready.result.workflowData![0][0].json.ready_to_post).toBe(true);

		const notHeld = await deliver(signed(notReady));
		expect(notHeld.result.workflowData!.map((items) => items.length)).toEqual([1, 0, 0]);
		expect(notHeld.result.workflowData![0][0].json.ready_to_post).toBe(false);
	});

	it('Output "Raw" gives the delivery as it came', async () => {
		const { result } = await deliver({
			...signed(verifiedEvent()),
			parameters: { outputMode: 'raw' },
		});
		const {
			currency,
			ready_to_post: ready,
			not_ready_because: reasons,
			...delivery
		} = result.workflowData![0][0].json;
		expect(delivery).toEqual(verifiedEvent());
		expect({ currency, ready, reasons }).toEqual({ currency: null, ready: true, reasons: [] });
	});

	const forged: Array<[string, Call]> = [
		['no signature', { body: JSON.stringify(verifiedEvent()) }],
		['signed with another secret', signed(verifiedEvent(), 'whsec_someone_else')],
		[
			'a changed body',
			{
				body: JSON.stringify({ ...verifiedEvent(), data: { ...EXTRACTED, amounts: { total: 1 } } }),
				signature: signed(verifiedEvent()).signature,
			},
		],
		[
			'uppercase hex',
			{
				body: signed(verifiedEvent()).body,
				signature: signed(verifiedEvent()).signature.toUpperCase(),
			},
		],
		[
			'a "sha256=" prefix',
			{
				body: signed(verifiedEvent()).body,
				signature: `sha256=${signed(verifiedEvent()).signature}`,
			},
		],
		['no secret in the credential', { ...signed(verifiedEvent(), ''), secret: '' }],
	];
	it.each(forged)('%s: 401, and the execution keeps waiting', async (_name, call) => {
		const { result, answer } = await deliver(call);
		expect(answer.status).toBe(401);
		expect(result).toEqual({ noWebhookResponse: true });
	});

	it('a signed result for another document: acknowledged (so the service stops retrying), the execution keeps waiting', async () => {
		const { result, answer } = await deliver(signed(verifiedEvent('doc_previous_one')));
		expect(answer).toEqual({
			status: 200,
			body: { received: true, ignored: 'not the document this execution waits for' },
		});
		expect(result.workflowData).toBeUndefined();
	});

	it('N41: a signed result for the awaited document signed three days ago, or two hours ahead, is refused 400: the execution keeps waiting', async () => {
		for (const offset of [-72 * 3_600_000, 2 * 3_600_000]) {
			const timestamp = new Date(Date.now() + offset).toISOString();
			const { result, answer } = await deliver(signed({ ...verifiedEvent(), timestamp }));
			expect(answer.status, timestamp).toBe(400);
			expect(String(answer.body?.error)).toMatch(/^Stale delivery/);
			expect(result.workflowData).toBeUndefined();
		}
	});

	it('a signed event of another kind or a body that is not a JSON object: the execution keeps waiting', async () => {
		const other = await deliver(signed({ event: 'document.processing', document_id: AWAITED }));
		expect(other.answer.status).toBe(200);
		expect(other.result.workflowData).toBeUndefined();
		const list = await deliver(signed([verifiedEvent()]));
		expect(list.answer.status).toBe(400);
		expect(list.result.workflowData).toBeUndefined();
	});

	it('nothing awaited (custom data missing): nothing resumes', async () => {
		const { result } = await deliver({ ...signed(verifiedEvent()), awaited: '' });
		expect(result.workflowData).toBeUndefined();
	});

	it('N68: the account secret changed, the previous one kept until a set time: a result signed with it resumes until then, and is refused after, the log saying what to do', async () => {
		const NEW_SECRET = 'whsec_UNITTEST_callback_rotated_fedcba9876';
		const rotated = (until: number) => ({
			secret: NEW_SECRET,
			credential: {
				previousSigningSecret: SECRET,
				acceptPreviousUntil: new Date(until).toISOString(),
			},
		});
		const before = await deliver({ ...signed(verifiedEvent()), ...rotated(Date.now() + 60_000) });
		expect(before.answer).toEqual({ status: 200, body: { received: true, resumed: true } });
		const current = await deliver({
			...signed(verifiedEvent(), NEW_SECRET),
			...rotated(Date.now() - 60_000),
		});
		expect(current.answer.status).toBe(200);
		const after = await deliver({ ...signed(verifiedEvent()), ...rotated(Date.now() - 60_000) });
		expect(after.answer).toEqual({
			status: 401,
			body: { error: 'Invalid or missing X-Service-Signature' },
		});
		expect(after.result.workflowData).toBeUndefined();
		expect(after.warnings).toHaveLength(1);
		expect(after.warnings[0]).toMatch(
			/^Document Extraction: refused a review callback \(signed with a previous secret of the credential \(accepted until .*Z\): to accept it for longer, set a later "Accept Previous Until \(UTC\)" in the credential/,
		);
		for (const secret of [SECRET, NEW_SECRET]) expect(after.warnings[0]).not.toContain(secret);
	});
});
