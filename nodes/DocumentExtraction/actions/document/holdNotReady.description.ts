/**
 * Hold Invoices Not Ready to Post (docs/spec-decisions.md#n18), shown on Extract and on Check Invoice
 * Duplicate. On by default from version 1.1; version 1 keeps behaving as before (off) and offers it.
 */
import type { INodeProperties, NodeHint } from 'n8n-workflow';

import { documentOperationExpression, HOLDING_OPERATIONS } from './operations.ts';

export const HOLD_NOT_READY_PARAMETER = 'holdNotReady';

const DESCRIPTION =
	'Whether to keep a verified invoice whose ready_to_post is false off the route to your books, so nothing is posted with a missing or unreadable value or a failed check. The reasons are in not_ready_because.';

/** What ready_to_post means, shown on both operations. */
const READY_TO_POST_NOTICE =
	'Every invoice comes out with <b>ready_to_post</b> and <b>not_ready_because</b>: post it only when ready_to_post is true (<a href="https://github.com/document-extraction/n8n-nodes-document-extraction/blob/main/docs/ready-to-post.md" target="_blank">what ready means</a>).';

export function holdNotReadyProperties(whereHeld: string): INodeProperties[] {
	const description = `${DESCRIPTION} ${whereHeld}`;
	const hold: INodeProperties = {
		displayName: 'Hold Invoices Not Ready to Post',
		name: HOLD_NOT_READY_PARAMETER,
		type: 'boolean',
		default: true,
	};
	return [
		{ ...hold, default: false, displayOptions: { show: { '@version': [1] } }, description },
		{ ...hold, displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } }, description },
		{
			displayName: READY_TO_POST_NOTICE,
			name: 'readyToPostNotice',
			type: 'notice',
			default: '',
		},
	];
}

const ON_INVOICE_OPERATIONS = documentOperationExpression(HOLDING_OPERATIONS);

/** The node's hints in the output pane: what to route on, and what happens when holding is off. */
export const READY_TO_POST_HINTS: NodeHint[] = [
	{
		message:
			'Post an invoice to your books only when <b>ready_to_post</b> is true; <b>not_ready_because</b> says what a person must fix. <b>checks.all_passed</b> alone is not enough: it is true when the checks that could be computed passed.',
		type: 'info',
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		displayCondition: `={{ ${ON_INVOICE_OPERATIONS} && $parameter.${HOLD_NOT_READY_PARAMETER} === true }}`,
	},
	{
		message:
			'<b>Hold Invoices Not Ready to Post</b> is off: invoices with ready_to_post false come out on Verified / New Invoice too. Turn it on, or route on ready_to_post before posting.',
		type: 'warning',
		location: 'outputPane',
		whenToDisplay: 'afterExecution',
		displayCondition: `={{ ${ON_INVOICE_OPERATIONS} && $parameter.${HOLD_NOT_READY_PARAMETER} !== true }}`,
	},
];
