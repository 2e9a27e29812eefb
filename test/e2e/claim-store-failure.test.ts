/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code runs in plain Node, never inside n8n; it opens n8n's SQLite database */
// A claim whose deduplication-store write fails mid-claim releases what it wrote (docs/memory.md,
// "How a claim works"), in a real n8n against the sandbox: an email of invoices goes through Extract
// with Skip Files Already Submitted on. A trigger put on n8n's `processed_data` table, in its SQLite
// database, makes the claim's confirming write fail (a database error, as a pool timeout would),
// once the claim's first write is in. The execution fails, the store keeps none of the claim's
// keys nor its token, and the retry, as the editor retries it, outputs every invoice on Verified with
// its data, none on Already Submitted.

import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { log, type DecodedExecution } from '../../local-n8n/index.ts';
import {
	activeEmailRuns,
	extractError,
	extractOutputs,
	invoices,
	withItsData,
} from './support/emailOfInvoices.ts';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';

const fixture = useN8nAndSandbox();

/** n8n's own database (SQLite in WAL mode: another connection may write beside n8n). */
function n8nDatabase(): DatabaseSync {
	return new DatabaseSync(join(fixture.stack.n8n.userFolder, '.n8n', 'database.sqlite'), {
		timeout: 10_000,
	});
}

/**
 * Until dropped, a write of the workflow's deduplication row that changes nothing fails: the
 * confirming write of a claim (its keys and token are already there). The first write creates the
 * row, and the removal of keys changes it: both go through.
 */
function failConfirmingWrites(workflowId: string): { drop(): void } {
	const database = n8nDatabase();
	database.exec(
		`CREATE TRIGGER e2e_confirming_write_fails BEFORE UPDATE OF value ON processed_data
		 WHEN NEW.workflowId = '${workflowId}' AND NEW.value = OLD.value
		 BEGIN SELECT json('the e2e test fails this write'); END;`,
	);
	return {
		drop: () => {
			database.exec('DROP TRIGGER e2e_confirming_write_fails');
			database.close();
		},
	};
}

/** How many values the workflow's deduplication row holds (keys and tokens, hashed by n8n). */
function storedValues(workflowId: string): number {
	const database = n8nDatabase();
	try {
		const rows = database
			.prepare('SELECT value FROM processed_data WHERE workflowId = ?')
			.all(workflowId) as Array<{ value: string }>;
		return rows.reduce(
			(sum, row) => sum + (JSON.parse(row.value) as { data: string[] }).data.length,
			0,
		);
	} finally {
		database.close();
	}
}

it("the store's confirming write fails mid-claim: the execution fails with nothing claimed left, and its retry outputs every invoice on Verified", async () => {
	const runs = await activeEmailRuns(
		fixture,
		'e2e: claim store failure',
		fixture.credential,
		false,
	);
	const id = runs.workflowId;
	const files = invoices('STORE-FAIL', 3);

	const failing = failConfirmingWrites(id);
	let failed: DecodedExecution;
	try {
		failed = await runs.send(files);
	} finally {
		failing.drop();
	}
	expect(failed.status).toBe('error');
	const error = extractError(failed);
	log(
		'claim-store-failure',
		`the failed execution says: ${error?.message} | ${error?.description}`,
	);
	expect(error?.message).toBe('Could not check whether these files were already submitted');
	expect(error?.description).toContain('malformed JSON');
	const leftByTheFailure = storedValues(id);

	const retried = await runs.retry(failed);
	expect(retried.mode).toBe('retry');
	expect(retried.status).toBe('success');
	const out = extractOutputs(retried);
	expect(out['Already Submitted'].map((item) => item.json)).toEqual([]);
	expect(out.Verified.map((item) => item.json)).toEqual(files.map(withItsData));
	expect(leftByTheFailure).toBe(0);
	expect(storedValues(id)).toBe(files.length);
});
