/** Extract's parameters for one item, read once, in the shape the steps use. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { OutputMode } from '../../../invoice/invoiceMapping.ts';
import type { ExtractOutputSettings } from '../extractOutputs.ts';
import { outputSettingsFrom } from '../extractOutputs.ts';

export interface ExtractSettings extends ExtractOutputSettings {
	/** The field holding the file; with a pattern (filePattern), the pattern until a file is chosen. */
	binaryPropertyName: string;
	outputMode: OutputMode;
	/** The Webhook URL option (unused with Wait for Review, which uses the execution's resume URL). */
	webhookUrl?: string;
	/** Without either: send review results to this workflow's trigger (docs/spec-decisions.md#n40). */
	reviewResultsToTrigger: boolean;
	/** The input item's file travels on with its result (from version 1.2). */
	keepsFile: boolean;
	/** How long a 429 is retried, from the upload's first attempt (docs/spec-decisions.md#n69). */
	rateLimitWaitMs: number;
	detectSameInvoice: boolean;
	holdNotReady: boolean;
}

/**
 * Long enough for a month-end burst on the smallest tier; a saved `rateLimitRetries` (the count this
 * replaced) is dropped when n8n loads the workflow, which then waits this long instead.
 */
export const DEFAULT_RATE_LIMIT_WAIT_MINUTES = 30;

/** The node version from which the input item's file travels on with its result. */
const KEEPS_FILE_FROM = 1.2;

/** The node version from which review results go to this workflow's trigger unless the option says no. */
const REVIEW_RESULTS_TO_TRIGGER_FROM = 1.2;

export function extractSettings(context: IExecuteFunctions, itemIndex: number): ExtractSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as {
		webhookUrl?: string;
		reviewResultsToTrigger?: boolean;
		rateLimitWaitMinutes?: number;
	};
	const binaryPropertyName = String(
		context.getNodeParameter('binaryPropertyName', itemIndex) ?? '',
	).trim();
	return {
		...outputSettingsFrom((name, fallback) => context.getNodeParameter(name, itemIndex, fallback)),
		binaryPropertyName,
		outputMode: context.getNodeParameter('outputMode', itemIndex, 'simplified') as OutputMode,
		webhookUrl: options.webhookUrl?.trim() || undefined,
		reviewResultsToTrigger:
			options.reviewResultsToTrigger ??
			context.getNode().typeVersion >= REVIEW_RESULTS_TO_TRIGGER_FROM,
		keepsFile: context.getNode().typeVersion >= KEEPS_FILE_FROM,
		rateLimitWaitMs: (options.rateLimitWaitMinutes ?? DEFAULT_RATE_LIMIT_WAIT_MINUTES) * 60_000,
	};
}
