import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as document from './document/Document.resource';
import * as webhook from './webhook/Webhook.resource';

type Operation = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

const operations: Record<string, Record<string, Operation>> = {
	document: { extract: document.extract.execute, getStatus: document.getStatus.execute },
	webhook: { register: webhook.register.execute },
};

/** Runs the chosen operation once per input item; with Continue On Fail, a failed item becomes an error item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operationName = this.getNodeParameter('operation', itemIndex) as string;
			const operation = operations[resource]?.[operationName];
			if (!operation) {
				throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`, {
					itemIndex,
				});
			}
			returnData.push(...(await operation.call(this, itemIndex)));
		} catch (error) {
			if (this.continueOnFail()) {
				const nodeError = error as NodeApiError | NodeOperationError;
				returnData.push({
					json: {
						error: nodeError.message,
						...(nodeError.description ? { error_description: nodeError.description } : {}),
						...(error instanceof NodeApiError && error.httpCode ? { http_code: Number(error.httpCode) } : {}),
					},
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			// Errors of this node are already NodeApiError/NodeOperationError: wrapping hands them back as they are.
			const nodeError =
				error instanceof NodeApiError ? error : new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			nodeError.context.itemIndex ??= itemIndex;
			throw nodeError;
		}
	}
	return [returnData];
}
