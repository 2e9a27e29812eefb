// Holds one of n8n's writes of its deduplication store in the database, as a stalled connection
// would: a statement-level BEFORE UPDATE trigger on n8n's `processed_data` table that, once armed,
// keeps the first UPDATE that comes waiting until the test releases it. n8n's store reads the row,
// changes it and sends the whole value in one UPDATE (n8n's DeduplicationHelper: findOne, then
// update, no transaction, no lock), so the held UPDATE carries the row as it was read. A
// statement-level trigger runs before the UPDATE touches any row: every other writer goes on
// meanwhile, and the held one lands on the row they left when released.

import type { PostgresServer } from '../../../local-n8n/index.ts';

/** The session name a held UPDATE carries while it waits (reverted when its transaction ends). */
const HELD = 'e2e-held-write';

const INSTALL = `
CREATE TABLE IF NOT EXISTS e2e_stall_armed (armed_at timestamptz DEFAULT now());
CREATE TABLE IF NOT EXISTS e2e_stall_hold (held_at timestamptz DEFAULT now());
DELETE FROM e2e_stall_armed;
DELETE FROM e2e_stall_hold;
CREATE OR REPLACE FUNCTION e2e_stall_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- One writer takes the arming; a writer that comes meanwhile skips it and is not held.
	DELETE FROM e2e_stall_armed
		WHERE ctid IN (SELECT ctid FROM e2e_stall_armed LIMIT 1 FOR UPDATE SKIP LOCKED);
	IF FOUND THEN
		PERFORM set_config('application_name', '${HELD}', true);
		WHILE EXISTS (SELECT 1 FROM e2e_stall_hold) LOOP
			PERFORM pg_sleep(0.05);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS e2e_stall_write ON processed_data;
CREATE TRIGGER e2e_stall_write BEFORE UPDATE ON processed_data
	FOR EACH STATEMENT EXECUTE FUNCTION e2e_stall_write();`;

export interface WriteStall {
	/** The next UPDATE of `processed_data` (by any process) waits until `release()`. */
	arm(): void;
	/** How many UPDATEs of `processed_data` are held now (0 or 1). */
	held(): number;
	/** Lets the held UPDATE go; how long it had been held, in seconds (0 when none was). */
	release(): number;
	/** Releases, and removes the trigger and its tables. */
	remove(): void;
}

/** Installs the trigger (disarmed) on n8n's `processed_data` table. */
export function installWriteStall(postgres: PostgresServer): WriteStall {
	postgres.sql(INSTALL);
	const release = () => {
		const [seconds] = postgres
			.sql(
				`SELECT extract(epoch FROM clock_timestamp() - query_start) FROM pg_stat_activity WHERE application_name = '${HELD}'`,
			)
			.split('\n');
		// Two transactions: the held writer still holds the arming's row until it ends.
		postgres.sql('DELETE FROM e2e_stall_hold');
		postgres.sql('DELETE FROM e2e_stall_armed');
		return Number(seconds || 0);
	};
	return {
		arm: () =>
			postgres.sql(
				'INSERT INTO e2e_stall_hold DEFAULT VALUES; INSERT INTO e2e_stall_armed DEFAULT VALUES;',
			),
		held: () =>
			Number(
				postgres
					.sql(`SELECT count(*) FROM pg_stat_activity WHERE application_name = '${HELD}'`)
					.trim(),
			),
		release,
		remove: () => {
			release();
			postgres.sql(
				'DROP TRIGGER IF EXISTS e2e_stall_write ON processed_data; DROP FUNCTION IF EXISTS e2e_stall_write(); DROP TABLE IF EXISTS e2e_stall_armed, e2e_stall_hold;',
			);
		},
	};
}

/** The values of a workflow's deduplication row (n8n stores each key as its MD5, in base64). */
export function storedValues(postgres: PostgresServer, workflowId: string): string[] {
	return postgres
		.sql(
			`SELECT json_array_elements_text((value::json)->'data') FROM processed_data WHERE "workflowId" = '${workflowId}' AND context = ''`,
		)
		.split('\n')
		.filter(Boolean);
}
