import type { INodeProperties } from 'n8n-workflow';

import * as register from './register.operation.ts';

export { register };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Register',
				value: 'register',
				description:
					'Register an HTTPS endpoint that receives review results (verified or rejected)',
				action: 'Register a webhook',
			},
		],
		default: 'register',
	},
	...register.description,
];
