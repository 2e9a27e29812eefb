import { describe, expect, it } from 'vitest';

import type { RegisterRow } from '../../../../../nodes/DocumentExtraction/register/registerDigest.ts';
import { registerDigest } from '../../../../../nodes/DocumentExtraction/register/registerDigest.ts';

const NOW = new Date('2026-11-30T08:00:00.000Z');
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR).toISOString();
const settings = {
	now: NOW,
	awaitingApprovalHours: 24,
	unfinishedHours: 4,
	lastDigestAt: new Date('2026-11-27T08:00:00.000Z'),
};
const row = (fields: Partial<RegisterRow>): RegisterRow => ({
	register_key: '1',
	books: 'Xero',
	supplier: 'Acme Ltd',
	invoice_no: 'INV-1',
	total: '100',
	currency: 'EUR',
	detail: '',
	...fields,
});

describe('registerDigest', () => {
	it('lists awaiting approval only when it waited longer than the threshold (the edge is not yet)', () => {
		const digest = registerDigest(
			[
				row({ register_key: 'edge', state: 'awaiting approval', updatedAt: ago(24) }),
				row({
					register_key: 'past',
					state: 'awaiting approval',
					updatedAt: new Date(NOW.getTime() - 24 * HOUR - 1).toISOString(),
					detail: 'Sent to manager@example.com',
				}),
				row({ register_key: 'fresh', state: 'awaiting approval', updatedAt: ago(1) }),
			],
			settings,
		);
		expect(digest.awaiting_approval.map((entry) => entry.register_key)).toEqual(['past']);
		expect(digest.awaiting_approval[0]).toMatchObject({
			hours: 24,
			detail: 'Sent to manager@example.com',
		});
		expect(digest.digest_text).toContain('waiting 24 h, Sent to manager@example.com');
		expect(digest).toMatchObject({ send: true, needs_person: true });
	});

	it("lists a policy step's row awaiting approval, its step in the state", () => {
		const digest = registerDigest(
			[
				row({
					register_key: 'step-2',
					state: 'awaiting approval: step 2 of 2, finance director',
					updatedAt: ago(30),
				}),
				row({ register_key: 'approved', state: 'approved', updatedAt: ago(30) }),
			],
			settings,
		);
		expect(digest.awaiting_approval.map((entry) => entry.register_key)).toEqual(['step-2']);
		expect(digest.digest_text).toContain('waiting 30 h (step 2 of 2, finance director)');
	});

	it('lists received rows older than their own threshold, oldest first', () => {
		const digest = registerDigest(
			[
				row({ register_key: 'a', state: 'received', updatedAt: ago(5), supplier: '', total: '' }),
				row({ register_key: 'b', state: 'received', updatedAt: ago(4) }),
				row({
					register_key: 'c',
					state: 'received',
					updatedAt: ago(30),
					file_name: 'scan.pdf',
					supplier: '',
					invoice_no: '',
					total: '',
					currency: '',
				}),
			],
			settings,
		);
		expect(digest.unfinished.map((entry) => entry.register_key)).toEqual(['c', 'a']);
		expect(digest.digest_text).toContain('- scan.pdf (Xero): received 30 h ago');
	});

	it('lists every state starting with "failed", with its message', () => {
		const digest = registerDigest(
			[
				row({ state: 'failed', updatedAt: ago(0.5), detail: 'Xero answered 500' }),
				row({ state: 'Failed at the books', updatedAt: ago(100) }),
				row({ state: 'rejected', updatedAt: ago(1) }),
				row({ state: 'cannot be booked', updatedAt: ago(1) }),
			],
			settings,
		);
		expect(digest.failed.map((entry) => entry.state)).toEqual(['Failed at the books', 'failed']);
		expect(digest.digest_text).toContain(
			'Acme Ltd, INV-1, EUR 100.00 (Xero): failed: Xero answered 500',
		);
		expect(digest.counts).toEqual({ awaiting_approval: 0, failed: 2, unfinished: 0, booked: 0 });
	});

	it('totals what was booked since the last digest per currency, in whole cents', () => {
		const digest = registerDigest(
			[
				row({ state: 'booked', updatedAt: ago(1), total: '0.1', currency: 'EUR' }),
				row({ state: 'booked', updatedAt: ago(2), total: '0.2', currency: 'eur' }),
				row({ state: 'booked', updatedAt: ago(3), total: '1487.5', currency: 'EUR' }),
				row({ state: 'booked', updatedAt: ago(3), total: '-20.05', currency: 'USD' }),
				row({ state: 'booked', updatedAt: ago(4), total: '1000000.01', currency: 'GBP' }),
				row({ state: 'booked', updatedAt: ago(5), total: 'n/a', currency: 'GBP' }),
				// At the last digest exactly: it was in that one.
				row({ state: 'booked', updatedAt: settings.lastDigestAt.toISOString(), total: '5' }),
				row({ state: 'booked', updatedAt: ago(100), total: '7' }),
				row({ state: 'already in the books', updatedAt: ago(1), total: '9' }),
			],
			settings,
		);
		expect(digest.counts.booked).toBe(6);
		expect(digest.booked_totals).toEqual([
			{ currency: 'EUR', count: 3, total: 1487.8, total_text: '1,487.80' },
			{ currency: 'GBP', count: 1, total: 1000000.01, total_text: '1,000,000.01' },
			{ currency: 'USD', count: 1, total: -20.05, total_text: '-20.05' },
		]);
		expect(digest.booked_without_total).toBe(1);
		expect(digest.digest_text).toContain(
			'Booked in total: EUR 1,487.80 (3), GBP 1,000,000.01 (1), USD -20.05 (1)',
		);
		expect(digest).toMatchObject({ send: true, needs_person: false });
		expect(digest.subject).toBe('Invoice register: 6 booked');
	});

	it('without a last digest counts the last 24 hours as since', () => {
		const digest = registerDigest(
			[
				row({ register_key: 'in', state: 'booked', updatedAt: ago(23) }),
				row({ register_key: 'out', state: 'booked', updatedAt: ago(25) }),
			],
			{ ...settings, lastDigestAt: null },
		);
		expect(digest.booked.map((entry) => entry.register_key)).toEqual(['in']);
		expect(digest.booked_since).toBe(ago(24));
	});

	it('has nothing to send for an empty register or one where nothing waits and nothing was booked', () => {
		for (const rows of [
			[],
			[
				row({ state: 'booked', updatedAt: ago(100) }),
				row({ state: 'rejected', updatedAt: ago(1) }),
				row({ state: 'awaiting approval', updatedAt: ago(2) }),
				row({ state: 'received', updatedAt: ago(1) }),
			],
		]) {
			const digest = registerDigest(rows, settings);
			expect(digest).toMatchObject({ send: false, needs_person: false });
			expect(digest.counts).toEqual({ awaiting_approval: 0, failed: 0, unfinished: 0, booked: 0 });
			expect(digest.booked_totals).toEqual([]);
		}
	});

	it('escapes every text from the register in the HTML', () => {
		const markup = '<script>x</script> & "Co"';
		const digest = registerDigest(
			[
				row({
					state: 'failed',
					updatedAt: ago(1),
					supplier: markup,
					invoice_no: "<b>7</b>'",
					detail: '<img src=x onerror=alert(1)>',
				}),
				row({ state: 'booked', updatedAt: ago(1), supplier: markup, currency: '<i>EUR' }),
			],
			settings,
		);
		expect(digest.digest_html).not.toMatch(/<script|<b>7|<img|<i>EUR|& "Co"/);
		expect(digest.digest_html).toContain(
			'&#x3C;script&#x3E;x&#x3C;/script&#x3E; &#x26; &#x22;Co&#x22;',
		);
		// The digest's own markup stays markup.
		expect(digest.digest_html).toMatch(/^<h3>Failed \(1\)<\/h3><ul><li>/);
		// Plain text keeps the characters as they are.
		expect(digest.digest_text).toContain(markup);
	});

	it('skips a row without a readable time', () => {
		const digest = registerDigest(
			[row({ state: 'failed', updatedAt: 'soon', createdAt: undefined })],
			settings,
		);
		expect(digest.send).toBe(false);
	});
});
