/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/**
 * A start node for test workflows, like n8n's manual trigger followed by "Read/Write Files from
 * Disk": it outputs the items of a named fixture, and stores each file with n8n's own
 * `helpers.prepareBinaryData`, so the file lands in whatever binary mode n8n-core is in
 * (filesystem: on disk, with an id; default: base64 in the item).
 */
import type { Readable } from 'node:stream';

import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

export interface FixtureFile {
	/** The bytes, or a stream of them (a large file need not be held in memory). */
	content: Buffer | (() => Readable);
	fileName?: string;
	mimeType?: string;
	/** Fields to overwrite on the stored binary entry afterwards (e.g. a misleading mimeType). */
	override?: Partial<IBinaryData>;
}

export interface FixtureItem {
	json?: IDataObject;
	binary?: Record<string, FixtureFile>;
}

export const SOURCE_NODE_TYPE = 'test.source';

/** Builds the source node type; n8n calls `execute` with the execution context as `this`. */
export function createSourceNode(fixtures: Map<string, FixtureItem[]>): INodeType {
	const description: INodeTypeDescription = {
		displayName: 'Test Source',
		name: 'source',
		group: ['input'],
		version: 1,
		description: 'Outputs the items of a test fixture',
		defaults: { name: 'Source' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Fixture', name: 'fixture', type: 'string', default: '' }],
	};

	async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const name = this.getNodeParameter('fixture', 0) as string;
		const items = fixtures.get(name);
		if (!items) throw new Error(`Unknown fixture "${name}"`);
		const output: INodeExecutionData[] = [];
		for (const item of items) {
			const binary: Record<string, IBinaryData> = {};
			for (const [key, file] of Object.entries(item.binary ?? {})) {
				const content = typeof file.content === 'function' ? file.content() : file.content;
				const stored = await this.helpers.prepareBinaryData(content, file.fileName, file.mimeType);
				binary[key] = { ...stored, ...file.override };
			}
			output.push({ json: item.json ?? {}, ...(item.binary ? { binary } : {}) });
		}
		return [output];
	}

	return { description, execute };
}
