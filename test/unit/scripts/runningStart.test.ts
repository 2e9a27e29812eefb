/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// How `npm run send-invoice` finds the running `npm start`: the record each start keeps in a fixed
// place of the user's, and the choice among the running starts (scripts/runningStart.ts).

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
	chooseStart,
	recordStart,
	runningStarts,
	runningStartsDir,
	type StartRecord,
} from '../../../scripts/runningStart.ts';

const start = (
	dataDir: string,
	startedAt: string,
	more: Partial<StartRecord> = {},
): StartRecord => ({
	pid: 100,
	dataDir,
	startedAt,
	state: 'running',
	mailboxes: { started: true },
	...more,
});
const asIs = (path: string) => path;

describe('which running start send-invoice mails', () => {
	it('none running: says so and how to start', () => {
		const chosen = chooseStart([], undefined, asIs);
		expect(chosen).toEqual({
			error: expect.stringMatching(/^No npm start is running\. Start it .*"npm start"/),
		});
		expect(chooseStart([], '/data/a', asIs)).toEqual({
			error: expect.stringContaining('npm start -- --data /data/a'),
		});
	});

	it('one running, on a throwaway or its own folder: that one, whatever --data it had', () => {
		const fresh = start('/tmp/n8n-demo-x1', '2026-11-29T07:00:00Z');
		expect(chooseStart([fresh], undefined, asIs)).toEqual({ start: fresh, note: undefined });
		expect(chooseStart([fresh], '/tmp/n8n-demo-x1', asIs)).toEqual({
			start: fresh,
			note: undefined,
		});
	});

	it('several running: the one started last, with a note naming the others; --data picks one', () => {
		const older = start('/data/old', '2026-11-29T06:00:00Z', { pid: 1 });
		const newer = start('/data/new', '2026-11-29T07:00:00Z', { pid: 2 });
		const chosen = chooseStart([older, newer], undefined, asIs);
		expect(chosen).toMatchObject({ start: newer, note: expect.stringContaining('/data/old') });
		expect(chooseStart([older, newer], '/data/old', asIs)).toEqual({
			start: older,
			note: undefined,
		});
		expect(chooseStart([older, newer], '/data/other', asIs)).toEqual({
			error: expect.stringMatching(
				/^No npm start is running on \/data\/other; running: \/data\/new/,
			),
		});
	});

	it('a start still starting, or one whose mailboxes did not start: says which and why', () => {
		expect(
			chooseStart([start('/d', '2026-11-29T07:00:00Z', { state: 'starting' })], undefined, asIs),
		).toEqual({ error: expect.stringContaining('is still starting') });
		const without = start('/d', '2026-11-29T07:00:00Z', {
			mailboxes: { started: false, why: 'Dovecot did not start: port taken' },
		});
		expect(chooseStart([without], undefined, asIs)).toEqual({
			error: expect.stringMatching(/runs no local mailboxes: Dovecot did not start: port taken$/),
		});
	});

	it('paths are compared as the same place (a link and its target)', () => {
		const running = start('/private/tmp/x', '2026-11-29T07:00:00Z');
		const place = (path: string) => path.replace(/^\/tmp/, '/private/tmp');
		expect(chooseStart([running], '/tmp/x', place)).toMatchObject({ start: running });
	});
});

describe('the record of a running start', () => {
	const runtime = mkdtempSync(join(tmpdir(), 'running-start-'));
	const saved = process.env.XDG_RUNTIME_DIR;
	afterAll(() => {
		if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
		else process.env.XDG_RUNTIME_DIR = saved;
		rmSync(runtime, { recursive: true, force: true });
	});

	it('is kept in a private folder of the user, read back while its process runs, dropped when it does not', () => {
		process.env.XDG_RUNTIME_DIR = runtime;
		const dir = runningStartsDir();
		expect(dir).toBe(join(runtime, 'n8n-nodes-document-extraction'));
		const record = recordStart({
			pid: process.pid,
			dataDir: '/data/here',
			startedAt: new Date().toISOString(),
			state: 'starting',
		});
		expect(statSync(dir).mode & 0o077).toBe(0);
		expect(runningStarts()).toMatchObject([{ pid: process.pid, state: 'starting' }]);
		record.update({ state: 'running', mailboxes: { started: true } });
		expect(runningStarts()).toMatchObject([{ state: 'running', mailboxes: { started: true } }]);
		// Its process gone (a start killed hard): ignored, and the record removed.
		expect(runningStarts(() => false)).toEqual([]);
		expect(readdirSync(dir)).toEqual([]);
		expect(existsSync(dir)).toBe(true);
	});
});
