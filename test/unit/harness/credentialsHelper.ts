/**
 * The credentials side of n8n (its CLI's CredentialsHelper is not published), kept small:
 * - credential data is stored encrypted with n8n-core's own `Credentials` class and Cipher, and
 *   decrypted per request, the way n8n hands it to nodes;
 * - defaults of the credential type's properties are applied with n8n-workflow's
 *   `NodeHelpers.getNodeParameters`, as n8n does for a saved credential;
 * - `authenticate` of the credential class is applied for real: a function is called, a generic
 *   definition (`{ type: 'generic', properties: { headers | qs | body | auth: {...} } }`) is merged
 *   into the request with every `={{ ... }}` value resolved by the workflow's expression engine
 *   with `$credentials` set.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';

import { n8nCore, n8nWorkflow } from './n8nModules.ts';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export class TestCredentialsHelper extends n8nWorkflow.ICredentialsHelper {
	readonly #types = new Map<string, ICredentialType>();

	readonly #stored = new Map<string, InstanceType<typeof n8nCore.Credentials>>();

	/** Credential types whose `authenticate` was applied, in order (to assert it ran). */
	readonly authenticated: string[] = [];

	/** Decrypted reads of stored credentials (each is a database query and a decryption in n8n). */
	reads = 0;

	constructor(types: ICredentialType[]) {
		super();
		for (const type of types) this.#types.set(type.name, type);
	}

	/** Stores the data encrypted, as n8n keeps a saved credential. */
	async store(credential: StoredCredential): Promise<void> {
		const credentials = new n8nCore.Credentials(
			{ id: credential.id, name: credential.name },
			credential.type,
		);
		await credentials.setData(credential.data);
		this.#stored.set(`${credential.type}:${credential.id}`, credentials);
	}

	#type(name: string): ICredentialType {
		const type = this.#types.get(name);
		if (!type) throw new n8nWorkflow.UnexpectedError(`Unknown credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.#types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const stored = this.#stored.get(`${type}:${nodeCredentials.id}`);
		if (!stored) {
			throw new n8nWorkflow.UnexpectedError(
				`No stored credential "${nodeCredentials.name}" of type "${type}"`,
			);
		}
		return stored as unknown as ICredentials;
	}

	async getDecrypted(
		_additionalData: unknown,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.reads++;
		const data = await (await this.getCredentials(nodeCredentials, type)).getData();
		const withDefaults = n8nWorkflow.NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			data as never,
			true,
			false,
			null,
			null,
		);
		return (withDefaults ?? data) as ICredentialDataDecryptedObject;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.#type(type).properties;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.#type(typeName);
		this.authenticated.push(typeName);
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate.type !== 'generic') {
			throw new n8nWorkflow.UnexpectedError(
				`Unsupported authenticate type "${authenticate.type as string}"`,
			);
		}

		const resolve = (value: unknown) => {
			if (typeof value !== 'string' || !value.startsWith('=')) return value;
			if (!workflow || !node)
				throw new n8nWorkflow.UnexpectedError('An expression needs a workflow and a node');
			return workflow.expression.getSimpleParameterValue(
				node,
				value,
				'internal',
				{ $credentials: credentials },
				undefined,
				'',
			);
		};

		const options = requestOptions as unknown as Record<string, unknown>;
		for (const [location, entries] of Object.entries(authenticate.properties)) {
			if (typeof entries !== 'object' || entries === null) {
				options[location] = resolve(entries);
				continue;
			}
			const target = { ...((options[location] as IDataObject | undefined) ?? {}) };
			for (const [key, value] of Object.entries(entries as IDataObject)) {
				target[String(resolve(key))] = resolve(value) as IDataObject[string];
			}
			options[location] = target;
		}
		return options as unknown as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async updateCredentials(): Promise<void> {
		throw new n8nWorkflow.UnexpectedError('Tests do not update credentials');
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new n8nWorkflow.UnexpectedError('Tests do not update credentials');
	}
}
