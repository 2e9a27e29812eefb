/**
 * The outputs of Extract (N9). Without waiting: Verified | Needs Review (also documents still
 * processing). With Wait for Review: Verified | Rejected | Timed Out. The duplicate guard adds
 * Already Submitted; the same-invoice guard adds Possible Duplicate as the last output. Other
 * operations have one output.
 */
import type { INodeOutputConfiguration, IWebhookDescription } from 'n8n-workflow';

export interface ExtractOutputSettings {
	waitForReview: boolean;
	skipDuplicates: boolean;
	detectSameInvoice?: boolean;
}

export const OUTPUT = {
	verified: 0,
	needsReview: 1,
	rejected: 1,
	timedOut: 2,
} as const;

export function extractOutputNames(settings: ExtractOutputSettings): string[] {
	const names = settings.waitForReview ? ['Verified', 'Rejected', 'Timed Out'] : ['Verified', 'Needs Review'];
	if (settings.skipDuplicates) names.push('Already Submitted');
	// Only without waiting: a reviewed invoice arrives later, where Extract no longer runs.
	if (settings.detectSameInvoice === true && !settings.waitForReview) names.push('Possible Duplicate');
	return names;
}

/** Index of the Possible Duplicate output (always the last). */
export function possibleDuplicateOutput(settings: ExtractOutputSettings): number {
	return extractOutputNames(settings).length - 1;
}

/** Index of the Already Submitted output. */
export function alreadySubmittedOutput(settings: ExtractOutputSettings): number {
	return settings.waitForReview ? 3 : 2;
}

export function extractOutputs(settings: ExtractOutputSettings): INodeOutputConfiguration[] {
	return extractOutputNames(settings).map((displayName) => ({ type: 'main', displayName }));
}

/**
 * The node's `outputs` as an n8n expression over its parameters. Missing parameters count as their
 * defaults (resource Document, operation Extract, no waiting, no duplicate guard), so a workflow
 * created through the API with fewer parameters gets the same outputs as one made in the editor.
 */
export const OUTPUTS_EXPRESSION = (
	'={{ (($parameter.resource || "document") === "document" && ($parameter.operation || "extract") === "extract") ? ' +
	'[{ type: "main", displayName: "Verified" }]' +
	'.concat($parameter.waitForReview === true ' +
	'? [{ type: "main", displayName: "Rejected" }, { type: "main", displayName: "Timed Out" }] ' +
	': [{ type: "main", displayName: "Needs Review" }])' +
	'.concat(($parameter.options || {}).skipDuplicates === true ? [{ type: "main", displayName: "Already Submitted" }] : []) ' +
	'.concat($parameter.waitForReview !== true && ($parameter.options || {}).detectSameInvoice === true ? [{ type: "main", displayName: "Possible Duplicate" }] : []) ' +
	': ["main"] }}'
) as `={{${string}}}`;

/**
 * Where the service delivers the review result of a waiting execution (n8n's resume mechanism, as in
 * its send-and-wait nodes: a restart webhook of the waiting node, nothing registered anywhere).
 */
export const REVIEW_CALLBACK_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		path: '',
		restartWebhook: true,
		ndvHideUrl: true,
		ndvHideMethod: true,
	},
];
