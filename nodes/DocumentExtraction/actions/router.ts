import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as document from './document/Document.resource.ts';
import type { NodeOutputParameters, ReadParameter } from './document/extractOutputs.ts';
import {
	failedItemOutput,
	isExtract,
	isInvoiceOperation,
	nodeOutputCount,
	outputSettingsFrom,
} from './document/extractOutputs.ts';
import { EXTRACT_OPERATION } from './document/operations.ts';
import * as webhook from './webhook/Webhook.resource.ts';

/** Every operation's contract: its result for one item, as items per output (one-output operations fill only the first). */
type Operation = (context: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[][]>;

const operations: Record<string, Record<string, Operation>> = {
	document: {
		getStatus: document.getStatus.execute,
		checkInvoiceDuplicate: document.checkInvoiceDuplicate.execute,
		buildBill: document.buildBill.execute,
		nextApprovalStep: document.nextApprovalStep.execute,
		registerDigest: document.registerDigest.execute,
		registerEntry: document.registerEntry.execute,
		judgeBooksAnswer: document.judgeBooksAnswer.execute,
		prepareAttachment: document.prepareAttachment.execute,
		billAccount: document.billAccount.execute,
	},
	webhook: { register: webhook.register.execute },
};

/** The parameters that decide the node's outputs (the same for every item: outputs are per node). */
function outputParameters(context: IExecuteFunctions): NodeOutputParameters {
	const read: ReadParameter = (name, fallback) => context.getNodeParameter(name, 0, fallback);
	return {
		resource: read('resource', 'document') as string,
		operation: read('operation', EXTRACT_OPERATION) as string,
		answerTo: read('answerTo', 'lookup') as string,
		...outputSettingsFrom(read),
	};
}

/**
 * Runs the chosen operation once per input item, Extract over all items at once
 * (extract/parallelUploads.ts), and routes the items to the outputs in input order. As an AI tool,
 * everything goes to the one output the agent reads.
 */
export async function router(context: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const parameters = outputParameters(context);
	const outputs: INodeExecutionData[][] = Array.from(
		{ length: nodeOutputCount(parameters) },
		() => [],
	);
	const place = (routed: INodeExecutionData[][]) =>
		routed.forEach((outputItems, output) =>
			outputs[Math.min(output, outputs.length - 1)].push(...outputItems),
		);

	if (isExtract(parameters)) {
		const parallel = await uploadsAtOnce(context, parameters);
		const outcomes = await document.extract.extractInParallel(context, parallel);
		for (const outcome of outcomes) {
			if ('error' in outcome)
				placeFailure(context, outputs, parameters, outcome.itemIndex, outcome.error);
			else place(outcome.outputs);
		}
	} else {
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				place(await runOperation(context, itemIndex));
			} catch (error) {
				placeFailure(context, outputs, parameters, itemIndex, error);
			}
		}
	}
	if (context.getNode().type.endsWith('Tool')) return [outputs.flat()];
	return outputs;
}

/** How many of Extract's uploads go out at once (docs/spec-decisions.md#n44): one while waiting for a review or as an AI tool. */
async function uploadsAtOnce(
	context: IExecuteFunctions,
	parameters: NodeOutputParameters,
): Promise<number> {
	if (parameters.waitForReview || context.getNode().type.endsWith('Tool')) return 1;
	return await document.extract.parallelUploadsOf(context);
}

async function runOperation(
	context: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[][]> {
	const resource = context.getNodeParameter('resource', itemIndex) as string;
	const operationName = context.getNodeParameter('operation', itemIndex) as string;
	const operation = operations[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
			{ itemIndex },
		);
	}
	return await operation(context, itemIndex);
}

/**
 * A failed item. With Continue On Fail it becomes an error item on the output the rule names for
 * failures (Extract: the one that needs a person, never Verified; other operations: their one
 * output); "Continue (using error output)" hands it to n8n, which moves it to the error output.
 * Otherwise the node fails.
 */
function placeFailure(
	context: IExecuteFunctions,
	outputs: INodeExecutionData[][],
	parameters: NodeOutputParameters,
	itemIndex: number,
	error: unknown,
): void {
	if (context.continueOnFail()) {
		const nodeError = error as NodeApiError | NodeOperationError;
		outputs[failedItemOutput(parameters)].push({
			json: {
				error: nodeError.message,
				...(nodeError.description ? { error_description: nodeError.description } : {}),
				...(error instanceof NodeApiError && error.httpCode
					? { http_code: Number(error.httpCode) }
					: {}),
				// A flow that routes on ready_to_post never takes a failure for an invoice to post.
				...(isInvoiceOperation(parameters)
					? {
							ready_to_post: false,
							not_ready_because: [`The node failed on this item: ${nodeError.message}`],
						}
					: {}),
			},
			pairedItem: { item: itemIndex },
			// n8n's error output recognises a failed item by its error (the json has more than `error`).
			...(context.getNode().onError === 'continueErrorOutput' ? { error: nodeError } : {}),
		});
		return;
	}
	// Errors of this node are already NodeApiError/NodeOperationError: wrapping hands them back as they are.
	const nodeError =
		error instanceof NodeApiError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	nodeError.context.itemIndex ??= itemIndex;
	throw nodeError;
}
