import { describe, expect, it } from 'vitest';

import { extractSettings } from '../../../../../../../nodes/DocumentExtraction/actions/document/extract/settings.ts';
import { fakeExecuteContext } from '../../../../../harness/fakeExecuteContext.ts';

const settingsOf = (parameters: Record<string, unknown>) =>
	extractSettings(fakeExecuteContext({ parameters }).context, 0);

describe("Extract's settings for one item", () => {
	it('defaults: Simplified, no options, nothing held, and the 30-minute Rate Limit Wait docs/operations.md promises', () => {
		expect(settingsOf({ binaryPropertyName: 'data' })).toEqual({
			binaryPropertyName: 'data',
			filePattern: false,
			outputMode: 'simplified',
			webhookUrl: undefined,
			reviewResultsToTrigger: false,
			keepsFile: false,
			rateLimitWaitMs: 30 * 60_000,
			waitForReview: false,
			skipDuplicates: false,
			detectSameInvoice: false,
			holdNotReady: false,
			layout: 'outputsThatHold',
		});
	});

	it("N40: review results go to this workflow's trigger from version 1.2, unless the option says no", () => {
		const at = (typeVersion: number, options: Record<string, unknown> = {}) =>
			extractSettings(
				fakeExecuteContext({ parameters: { binaryPropertyName: 'data', options }, typeVersion })
					.context,
				0,
			).reviewResultsToTrigger;
		expect(at(1.2)).toBe(true);
		expect(at(1.2, { reviewResultsToTrigger: false })).toBe(false);
		expect(at(1.1)).toBe(false);
		expect(at(1, { reviewResultsToTrigger: true })).toBe(true);
	});

	it('trims the binary field name and the Webhook URL; a blank URL is no URL', () => {
		expect(
			settingsOf({
				binaryPropertyName: '  file ',
				options: { webhookUrl: ' https://x.example/h ' },
			}),
		).toMatchObject({
			binaryPropertyName: 'file',
			webhookUrl: 'https://x.example/h',
		});
		expect(
			settingsOf({ binaryPropertyName: 'data', options: { webhookUrl: '   ' } }).webhookUrl,
		).toBeUndefined();
	});

	it('reads every option', () => {
		const settings = settingsOf({
			binaryPropertyName: 'data',
			outputMode: 'raw',
			holdNotReady: true,
			options: { skipDuplicates: true, detectSameInvoice: true, rateLimitWaitMinutes: 0 },
		});
		expect(settings).toMatchObject({
			outputMode: 'raw',
			holdNotReady: true,
			skipDuplicates: true,
			detectSameInvoice: true,
			rateLimitWaitMs: 0,
		});
	});

	it('Detect Same Invoice is off while waiting for review (a reviewed invoice arrives where Extract no longer runs)', () => {
		const settings = settingsOf({
			binaryPropertyName: 'data',
			waitForReview: true,
			options: { detectSameInvoice: true },
		});
		expect(settings.waitForReview).toBe(true);
		expect(settings.detectSameInvoice).toBe(false);
	});

	it('only a true boolean turns an option on', () => {
		const settings = settingsOf({
			binaryPropertyName: 'data',
			holdNotReady: 'yes',
			options: { skipDuplicates: 'true' },
		});
		expect(settings.holdNotReady).toBe(false);
		expect(settings.skipDuplicates).toBe(false);
	});
});
