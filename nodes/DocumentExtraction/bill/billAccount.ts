/**
 * The account a supplier's bill is coded to (docs/accounting.md#supplier-rules): the supplier's rule,
 * unless the books refused its account; else the account a person chose, found among the books'
 * accounts by its name, which becomes the supplier's rule; else the Settings' account. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldsOf } from '../jsonObject.ts';

export interface AccountChoice {
	books: 'xero' | 'quickBooks';
	/** The supplier's rule row (empty when it has none). */
	rule: IDataObject;
	/** The books refused the rule's account: it is not used. */
	ruleRefused: boolean;
	/** The books' accounts answer: Xero's `{ Accounts }`, QuickBooks' `{ QueryResponse: { Account } }`. */
	accounts: unknown;
	/** The account's name as the person chose it in the form; empty when nobody chose. */
	chosen: string;
	/** The Settings' account: Xero's code, QuickBooks' id. */
	defaultAccount: string;
	/** Xero: the Settings' tax type. */
	defaultTaxType: string;
}

export interface BillAccount {
	/** Xero's account code or QuickBooks' account id; empty when nothing is set anywhere. */
	account: string;
	/** Xero's tax type; empty for QuickBooks or when none is set. */
	taxType: string;
	/** The chosen account becomes the supplier's rule. */
	learned: boolean;
}

const text = (value: unknown): string =>
	value === undefined || value === null ? '' : String(value).trim();

function accountsOf(choice: AccountChoice): IDataObject[] {
	const answer = fieldsOf(choice.accounts);
	const list = choice.books === 'xero' ? answer.Accounts : fieldsOf(answer.QueryResponse).Account;
	return Array.isArray(list) ? list.map(fieldsOf) : [];
}

export function billAccount(choice: AccountChoice): BillAccount {
	const rule = choice.ruleRefused ? {} : choice.rule;
	const xero = choice.books === 'xero';
	const ruled = text(xero ? rule.account_code : rule.expense_account_id);
	const chosenName = text(choice.chosen);
	const found = chosenName
		? accountsOf(choice).find((account) => text(account.Name) === chosenName)
		: undefined;
	if (ruled)
		return {
			account: ruled,
			taxType: xero
				? text(rule.tax_type) || text(found?.TaxType) || text(choice.defaultTaxType)
				: '',
			learned: false,
		};
	if (found)
		return {
			account: text(xero ? found.Code : found.Id),
			taxType: xero ? text(found.TaxType) || text(choice.defaultTaxType) : '',
			learned: true,
		};
	return {
		account: text(choice.defaultAccount),
		taxType: xero ? text(choice.defaultTaxType) : '',
		learned: false,
	};
}
