/**
 * "Send Sample Event When Listening": when "Listen for test event" starts, the trigger posts one
 * clearly marked sample event, signed like a real delivery, to its own test URL, so the person sees a
 * realistic item in the editor without waiting for a human review. Only test listening sends or
 * accepts it; production answers it without a run. docs/spec-decisions.md#n37
 */
import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { SIGNATURE_HEADER } from '../constants.ts';
import { computeSignature } from '../delivery/signedDelivery.ts';

const SAMPLE_DOCUMENT_PREFIX = 'doc_sample_';

/** Lets n8n finish setting up the test webhook before the sample arrives. */
const SAMPLE_DELAY_MS = 1_500;

/** A sample event of the first chosen kind, shaped as the service delivers it. */
function samplePayload(event: string, now = new Date()): IDataObject {
	const documentId = `${SAMPLE_DOCUMENT_PREFIX}${randomBytes(8).toString('hex')}`;
	const common: IDataObject = {
		event,
		sample: true,
		timestamp: now.toISOString(),
		document_id: documentId,
		review_id: 'rev_sample',
		confidence: { original: 0.72, final: 1 },
	};
	if (event === 'document.rejected') {
		return { ...common, rejected_by: 'human_reviewer', reason: 'Sample: the total is unreadable' };
	}
	return {
		...common,
		verified_by: 'human_reviewer',
		corrections_made: true,
		data: {
			header: {
				vendor: 'Sample Supplies Ltd',
				invoice_no: 'SAMPLE-0001',
				date: now.toISOString().slice(0, 10),
				currency: 'EUR',
			},
			amounts: { subtotal: 100, tax: 19, total: 119 },
			line_items: [{ description: 'Sample item', quantity: 1, unit_price: 100, amount: 100 }],
		},
	};
}

/** Posts the sample to `testUrl` shortly, without holding up the listening that n8n is starting. */
export function sendSampleEvent(
	context: IHookFunctions,
	testUrl: string,
	event: string,
	secret: string,
): void {
	const body = JSON.stringify(samplePayload(event));
	void (async () => {
		await sleep(SAMPLE_DELAY_MS);
		await context.helpers.httpRequest({
			method: 'POST',
			url: testUrl,
			body,
			headers: {
				'content-type': 'application/json',
				[SIGNATURE_HEADER]: computeSignature(body, secret),
			},
			json: false,
		});
	})().catch((error: Error) => {
		context.logger.warn(
			`Document Extraction Trigger: the sample event could not be sent to the test URL (${error.message})`,
		);
	});
}
