/** The trigger's Documents parameter and the sentence saying which documents start the workflow. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { DOCUMENTS_PARAMETER } from './documents.ts';

const choices: INodePropertyOptions[] = [
	{
		name: 'Sent by This Workflow',
		value: 'thisWorkflow',
		description: 'Only documents that a Document Extraction node in this workflow submitted',
	},
	{
		name: 'Every Document on the Account',
		value: 'account',
		description: 'Every reviewed document of the account, whichever workflow or tool submitted it',
	},
];

/** One parameter with the default of the node's version (docs/spec-decisions.md#n40). */
const documents: INodeProperties = {
	displayName: 'Documents',
	name: DOCUMENTS_PARAMETER,
	type: 'options',
	options: choices,
	default: 'thisWorkflow',
	description: 'Which reviewed documents start the workflow',
};

export const documentsProperties: INodeProperties[] = [
	{ ...documents, displayOptions: { show: { '@version': [{ _cnd: { gte: 1.2 } }] } } },
	{ ...documents, default: 'account', displayOptions: { show: { '@version': [1, 1.1] } } },
	{
		displayName:
			'Starts for documents a Document Extraction node (1.2) in this workflow submitted. Needs the Webhook Signing Secret in the credential (<a href="https://github.com/document-extraction/n8n-nodes-document-extraction/blob/main/docs/trigger.md#which-documents-start-the-workflow" target="_blank">more</a>)',
		name: 'documentsThisWorkflowNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [DOCUMENTS_PARAMETER]: ['thisWorkflow'] } },
	},
	{
		displayName:
			'Starts for every reviewed document of the account, whichever workflow submitted it (<a href="https://github.com/document-extraction/n8n-nodes-document-extraction/blob/main/docs/trigger.md#which-documents-start-the-workflow" target="_blank">more</a>)',
		name: 'documentsAccountNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { [DOCUMENTS_PARAMETER]: ['account'] } },
	},
];
