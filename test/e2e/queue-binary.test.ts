/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test/tooling code runs in plain Node, never inside n8n */
// Extract of a large file with n8n's binary data kept in the database (N8N_DEFAULT_BINARY_DATA_MODE=
// database), in n8n's queue mode (the full queue stack: Postgres, Redis, main, 2 workers, 2 webhook
// processes behind HAProxy) against the sandbox, called through the public URL, the execution on a
// worker: Read/Write Files from Disk stores the file as a database row, Extract reads it back through
// getBinaryStream (which in this mode reads the whole row into one buffer and streams from it: N1)
// and uploads it; the sandbox receives every byte.

import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QUEUE_MODE_REQUIREMENTS, describeNeeding } from './support/requirements.ts';
import {
	PACKAGE_NAME,
	log,
	nodeItems,
	nodeJson,
	readFileNode,
	sandboxState,
	webhookWorkflow,
} from '../../local-n8n/index.ts';
import {
	startQueueFixture,
	stopQueueFixture,
	waitForPublicWebhook,
	type QueueFixture,
} from './support/queueFixture.ts';

const FILE_BYTES = 30 * 1024 * 1024;

let fixture: QueueFixture;

function writeLargePdf(path: string, bytes: number): void {
	const fd = openSync(path, 'w');
	try {
		const header = Buffer.from('%PDF-1.7\n');
		writeSync(fd, header);
		const chunk = Buffer.alloc(1024 * 1024, 0x42);
		for (let written = header.length; written < bytes; ) {
			const size = Math.min(chunk.length, bytes - written);
			writeSync(fd, chunk, 0, size);
			written += size;
		}
	} finally {
		closeSync(fd);
	}
}

describeNeeding(
	QUEUE_MODE_REQUIREMENTS,
	'Extract of a large file with binary data in the database',
	() => {
		beforeAll(async () => {
			fixture = await startQueueFixture({ sandbox: { reviewDelayMs: 600_000 } });
		});

		afterAll(async () => {
			await stopQueueFixture(fixture);
		});

		it(`a ${FILE_BYTES / 1024 / 1024} MiB file: stored as a database row, uploaded whole, one document`, async () => {
			const { stack, sandbox } = fixture;
			const { credential } = fixture.account;
			const file = join(fixture.fileDir, 'large-db-mode.pdf');
			writeLargePdf(file, FILE_BYTES);
			const definition = webhookWorkflow({
				name: 'e2e: large file, database binary mode',
				responseMode: 'onReceived',
				nodes: [
					readFileNode('Read file', file),
					{
						name: 'Extract',
						type: `${PACKAGE_NAME}.documentExtraction`,
						typeVersion: 1,
						parameters: {
							resource: 'document',
							operation: 'extract',
							binaryPropertyName: 'data',
							outputMode: 'raw',
						},
						credentials: { documentExtractionApi: { id: credential.id, name: credential.name } },
					},
				],
			});
			const workflow = await stack.client.createWorkflow(definition);
			await stack.client.activateWorkflow(workflow.id);
			await waitForPublicWebhook(stack, definition.webhookPath);
			const before = (await sandboxState(sandbox.url)).documents.length;

			expect((await stack.lbClient.callWebhook(definition.webhookPath, { json: {} })).status).toBe(
				200,
			);
			const [execution] = await stack.client.waitForExecutions(workflow.id, 1, {
				timeoutMs: 300_000,
			});

			expect(execution.status).toBe('success');
			const [stored] = nodeItems(execution, 'Read file');
			expect(
				stored.binary?.data?.id,
				'the file lives in the database, not in the execution',
			).toMatch(/^database:/);
			expect(stored.binary?.data?.data ?? 'database').toBe('database');
			// Verified or Needs Review, whichever the sandbox decided.
			const [result] = [0, 1].flatMap((output) => nodeJson(execution, 'Extract', { output }));
			expect(result?.document_id).toEqual(expect.any(String));
			const documents = (await sandboxState(sandbox.url)).documents;
			expect(documents).toHaveLength(before + 1);
			const uploaded = documents.find((document) => document.id === result.document_id);
			expect(uploaded?.size).toBe(FILE_BYTES);
			expect(
				stack.workers.filter((worker) =>
					readFileSync(worker.logFile, 'utf8').includes(
						`Worker finished execution ${execution.id} `,
					),
				),
			).toHaveLength(1);
			expect(
				Number(stack.sql(`select count(*) from binary_data where "fileSize" = ${FILE_BYTES}`)),
			).toBeGreaterThanOrEqual(1);
			log(
				'queue-binary',
				`database binary mode: ${FILE_BYTES} bytes read into a database row (${String(stored.binary?.data?.id).slice(0, 20)}…) and uploaded whole as ${String(result.document_id)}`,
			);
		});
	},
);
