import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_TYPE, NODE_NAMES } from './constants.ts';
import * as document from './actions/document/Document.resource.ts';
import {
	OUTPUT_LAYOUT_PROPERTY,
	OUTPUTS_EXPRESSION,
	REVIEW_CALLBACK_WEBHOOKS,
} from './actions/document/extractOutputs.ts';
import { DATA_ONLY_OPERATIONS } from './actions/document/operations.ts';
import { READY_TO_POST_HINTS } from './actions/document/holdNotReady.description.ts';
import { receiveReviewResult } from './actions/document/reviewCallback.ts';
import { router } from './actions/router.ts';
import * as webhook from './actions/webhook/Webhook.resource.ts';

export class DocumentExtraction implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction',
		name: NODE_NAMES.action,
		icon: { light: 'file:documentExtraction.svg', dark: 'file:documentExtraction.dark.svg' },
		group: ['transform'],
		// 1.1: Hold Invoices Not Ready to Post is on by default (docs/spec-decisions.md#n18); version 1
		// keeps its earlier behaviour, with the option available.
		// 1.2: review results also go to this workflow's trigger (docs/spec-decisions.md#n40).
		// 1.3: every output keeps its place when options are turned on or off, with short labels
		// (docs/spec-decisions.md#n47); the earlier versions keep their outputs. Webhook → Register
		// generates a secret per endpoint unless told otherwise (docs/spec-decisions.md#n65).
		version: [1, 1.1, 1.2, 1.3],
		defaultVersion: 1.3,
		// In words: the canvas cuts a subtitle at about 25 characters.
		subtitle:
			'={{ ({ extract: "Extract", getStatus: "Get status", checkInvoiceDuplicate: "Check duplicate", buildBill: "Build bill", judgeBooksAnswer: "Judge books answer", nextApprovalStep: "Next approval step", registerDigest: "Register digest", register: "Register webhook" })[$parameter["operation"]] }}',
		description:
			'Extract invoice data (vendor, dates, amounts, line items) from PDF, JPG, PNG, JSON or CSV files, catch duplicate invoices and build Xero or QuickBooks bills',
		defaults: { name: 'Document Extraction' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: OUTPUTS_EXPRESSION,
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: true,
				// Check Invoice Duplicate reads and writes n8n's deduplication store; the other data-only
				// operations only build data.
				displayOptions: { hide: { operation: [...DATA_ONLY_OPERATIONS] } },
			},
		],
		hints: READY_TO_POST_HINTS,
		// Extract's Wait for Review: the service delivers the review result to the waiting execution.
		webhooks: REVIEW_CALLBACK_WEBHOOKS,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Document', value: 'document' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'document',
			},
			...document.description,
			...webhook.description,
			OUTPUT_LAYOUT_PROPERTY,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveReviewResult(this);
	}
}
