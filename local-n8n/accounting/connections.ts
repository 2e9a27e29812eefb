// Connecting the "to the books" examples to a local stand-in: an n8n OAuth2 credential that is
// already connected, and the example's Settings pointed at the stand-in.
//
// n8n keeps an OAuth2 connection's tokens in the credential's `oauthTokenData`. Its REST API
// accepts that field on create (POST /rest/credentials; only updates drop it), and the HTTP
// Request node with a predefined OAuth2 credential then signs requests with
// `Authorization: Bearer <access_token>` (n8n-core's requestOAuth2), refreshing only on a 401.
// So no OAuth dance is needed to reach the stand-in.

import type { Credential, N8nClient, WorkflowDefinition } from '../n8nApi.ts';
import {
	loadExampleWorkflows,
	waitForWorkflowWebhooks,
	withCredentialsByName,
} from '../workflows.ts';

export async function connectedOAuth2Credential(
	client: N8nClient,
	type: 'xeroOAuth2Api' | 'quickBooksOAuth2Api',
	name: string,
	accessToken: string,
): Promise<Credential> {
	return await client.createCredential(name, type, {
		clientId: 'local-stand-in',
		clientSecret: 'local-stand-in',
		oauthTokenData: {
			access_token: accessToken,
			token_type: 'Bearer',
			refresh_token: 'local-stand-in',
			expires_in: 1800,
		},
	});
}

/** The workflow with values of its "Settings" node replaced (e.g. the API base URL). */
export function withSettings(
	workflow: WorkflowDefinition,
	values: Record<string, string>,
): WorkflowDefinition {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.name !== 'Settings') return node;
			const assignments = (
				node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }
			).assignments;
			for (const key of Object.keys(values)) {
				if (!assignments.some((assignment) => assignment.name === key))
					throw new Error(`"${workflow.name}" has no setting "${key}"`);
			}
			return {
				...node,
				parameters: {
					...node.parameters,
					assignments: {
						assignments: assignments.map((assignment) =>
							assignment.name in values
								? { ...assignment, value: values[assignment.name] }
								: assignment,
						),
					},
				},
			};
		}),
	};
}

/**
 * Creates the example `exampleFile` (from examples/) with its Settings overridden by `settings` and its
 * credential references pointed at `credentials`, activates it and waits until n8n serves its
 * webhook. Fails if the example is missing or does not activate.
 */
export async function createActiveExample(
	client: N8nClient,
	exampleFile: string,
	settings: Record<string, string>,
	credentials: Credential[],
): Promise<{ id: string; webhookPath: string }> {
	const example = loadExampleWorkflows().find(({ file }) => file.endsWith(exampleFile));
	if (!example) throw new Error(`examples/${exampleFile} is missing`);
	const workflow = withSettings(example.workflow, settings);
	const created = await client.createWorkflow(withCredentialsByName(workflow, credentials));
	await client.activateWorkflow(created.id);
	await waitForWorkflowWebhooks(client, workflow);
	const webhook = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	return { id: created.id, webhookPath: String(webhook?.parameters.path) };
}
