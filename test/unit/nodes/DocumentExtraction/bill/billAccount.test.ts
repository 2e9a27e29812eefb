// The account a supplier's bill is coded to: the rule, unless refused; else the account a person
// chose (then the supplier's rule); else the Settings' account.
import { describe, expect, it } from 'vitest';

import type { AccountChoice } from '../../../../../nodes/DocumentExtraction/bill/billAccount.ts';
import { billAccount } from '../../../../../nodes/DocumentExtraction/bill/billAccount.ts';

const xeroAccounts = {
	Accounts: [
		{ Code: '408', Name: 'Cleaning', TaxType: 'INPUT2' },
		{ Code: '420', Name: 'Entertainment <b>', TaxType: 'INPUT' },
	],
};
const quickBooksAccounts = {
	QueryResponse: { Account: [{ Id: '7', Name: 'Office Supplies' }] },
};

const xero = (choice: Partial<AccountChoice>) =>
	billAccount({
		books: 'xero',
		rule: {},
		ruleRefused: false,
		accounts: {},
		chosen: '',
		defaultAccount: '400',
		defaultTaxType: 'NONE',
		...choice,
	});

describe('billAccount', () => {
	it("codes the bill to the supplier's rule, learning nothing", () => {
		expect(
			xero({
				rule: { account_code: '420', tax_type: 'INPUT' },
				accounts: xeroAccounts,
				chosen: 'Cleaning',
			}),
		).toEqual({ account: '420', taxType: 'INPUT', learned: false });
		expect(xero({ rule: { account_code: '420' } })).toEqual({
			account: '420',
			taxType: 'NONE',
			learned: false,
		});
	});

	it('codes it to the account a person chose, by its exact name, which becomes the rule', () => {
		expect(xero({ accounts: xeroAccounts, chosen: 'Entertainment <b>' })).toEqual({
			account: '420',
			taxType: 'INPUT',
			learned: true,
		});
		expect(
			billAccount({
				books: 'quickBooks',
				rule: {},
				ruleRefused: false,
				accounts: quickBooksAccounts,
				chosen: 'Office Supplies',
				defaultAccount: '1',
				defaultTaxType: 'ignored',
			}),
		).toEqual({ account: '7', taxType: '', learned: true });
	});

	it('does not use a rule whose account the books refused: the account chosen again is learned', () => {
		expect(
			xero({
				rule: { account_code: '420', tax_type: 'INPUT' },
				ruleRefused: true,
				accounts: xeroAccounts,
				chosen: 'Cleaning',
			}),
		).toEqual({ account: '408', taxType: 'INPUT2', learned: true });
	});

	it("falls back to the Settings' account when nobody chose, or chose a name the books do not have", () => {
		const fallback = { account: '400', taxType: 'NONE', learned: false };
		expect(xero({})).toEqual(fallback);
		expect(xero({ accounts: xeroAccounts, chosen: 'cleaning' })).toEqual(fallback);
		expect(xero({ accounts: { Accounts: 'not a list' }, chosen: 'Cleaning' })).toEqual(fallback);
	});
});
