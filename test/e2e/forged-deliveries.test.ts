/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test/tooling code runs in plain Node, never inside n8n */
// Hardening: a generated set of over 200 bad deliveries to the trigger in a real n8n (bit flips,
// truncated and extended bodies, wrong secrets, uppercase or prefixed or mis-sized signatures,
// missing header, empty, non-JSON and huge bodies): every one is refused and starts nothing, while
// valid controls start one execution each. A body that is not valid JSON under Content-Type
// application/json is refused by n8n's own body parser (422) before any node runs; every other
// forgery reaches the trigger and is answered 401. What strangers send costs no database write: 1,000
// forged requests leave the workflow's static data and its updatedAt as they were, and five genuine
// deliveries raced by forged ones each run once, also when replayed byte for byte after a restart.

import { beforeAll, describe, expect, it } from 'vitest';
import { useN8nAndSandbox } from './support/n8nAndSandbox.ts';
import { runsPerDocument } from './support/triggerRuns.ts';

const fixture = useN8nAndSandbox({ ownN8n: true });
let path: string;
let workflowId: string;

interface Forgery {
	name: string;
	body: Buffer;
	headers: Record<string, string>;
}

function payload(documentId: string): Buffer {
	return Buffer.from(
		JSON.stringify({
			event: 'document.verified',
			timestamp: new Date().toISOString(),
			document_id: documentId,
			review_id: 'rev_h',
			verified_by: 'human_reviewer',
			corrections_made: false,
			data: { header: { vendor: 'Forged Ltd' } },
			confidence: { original: 0.5, final: 0.99 },
		}),
	);
}

/** Bad deliveries built from one valid delivery (body + signature). */
function forgeries(valid: Buffer): Forgery[] {
	const secret = fixture.signingSecret;
	const signature = fixture.sign(valid);
	const header = (value: string) => ({ 'x-service-signature': value });
	const list: Forgery[] = [];
	for (let index = 0; index < 80; index++) {
		const flipped = Buffer.from(valid);
		const position = (index * 7919) % flipped.length;
		flipped[position] ^= 1 << index % 8;
		list.push({
			name: `bit flip ${index} at ${position}`,
			body: flipped,
			headers: header(signature),
		});
	}
	for (let cut = 1; cut <= 25; cut++)
		list.push({
			name: `truncated by ${cut}`,
			body: valid.subarray(0, valid.length - cut),
			headers: header(signature),
		});
	for (const suffix of [
		' ',
		'\n',
		'\r\n',
		'\t',
		'x',
		'0',
		'}',
		'{}',
		'[]',
		'null',
		',',
		'\u0000',
		' '.repeat(10),
		'\n\n',
		'//',
		'<!--',
		'%',
		'\\',
		'"',
		'a'.repeat(100),
	]) {
		list.push({
			name: `extended by ${JSON.stringify(suffix).slice(0, 12)}`,
			body: Buffer.concat([valid, Buffer.from(suffix)]),
			headers: header(signature),
		});
		list.push({
			name: `prefixed body ${JSON.stringify(suffix).slice(0, 12)}`,
			body: Buffer.concat([Buffer.from(suffix), valid]),
			headers: header(signature),
		});
	}
	for (let index = 0; index < 25; index++) {
		const wrong =
			index === 0
				? ''
				: index === 1
					? secret.toUpperCase()
					: index === 2
						? `${secret} `
						: `${secret}${index}`;
		list.push({
			name: `wrong secret ${index}`,
			body: valid,
			headers: header(fixture.sign(valid, wrong)),
		});
	}
	list.push({ name: 'uppercase hex', body: valid, headers: header(signature.toUpperCase()) });
	for (let count = 1; count <= 10; count++) {
		const mixed = signature.slice(0, count * 6).toUpperCase() + signature.slice(count * 6);
		if (mixed !== signature)
			list.push({ name: `mixed-case hex ${count}`, body: valid, headers: header(mixed) });
	}
	// (Leading or trailing spaces are not forgeries: HTTP strips them from header values.)
	for (const prefix of ['sha256=', 'SHA256=', 'sha256:', 'v1=', 'hmac ', 'Bearer ', '0x', 'sig='])
		list.push({
			name: `prefix ${prefix.trim()}`,
			body: valid,
			headers: header(`${prefix}${signature}`),
		});
	for (const suffix of ['=', ',', ';v=1', '0'])
		list.push({
			name: `suffix ${JSON.stringify(suffix)}`,
			body: valid,
			headers: header(`${signature}${suffix}`),
		});
	for (const wrongLength of [
		signature.slice(0, 63),
		signature.slice(0, 32),
		`${signature}0`,
		`${signature}${signature}`,
		'',
		'0'.repeat(64),
		'g'.repeat(64),
	]) {
		list.push({
			name: `signature of length ${wrongLength.length}`,
			body: valid,
			headers: header(wrongLength),
		});
	}
	list.push({
		name: 'base64 signature',
		body: valid,
		headers: header(Buffer.from(signature, 'hex').toString('base64')),
	});
	for (let index = 0; index < 5; index++)
		list.push({
			name: `missing header ${index}`,
			body: index === 0 ? valid : payload(`doc_missing${index}`),
			headers: {},
		});
	list.push({
		name: 'signature in another header',
		body: valid,
		headers: { 'x-signature': signature },
	});
	list.push({
		name: 'signature in the query-like header',
		body: valid,
		headers: { 'x-service-signature-256': signature },
	});
	list.push({ name: 'empty body', body: Buffer.alloc(0), headers: header(signature) });
	list.push({
		name: 'non-JSON body',
		body: Buffer.from('event=document.verified&document_id=doc_x'),
		headers: header(signature),
	});
	list.push({
		name: 'non-JSON body, its own signature with a wrong secret',
		body: Buffer.from('not json'),
		headers: header(fixture.sign('not json', 'nope')),
	});
	list.push({
		name: 'huge body',
		body: Buffer.concat([
			valid.subarray(0, valid.length - 1),
			Buffer.from(`,"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`),
		]),
		headers: header(signature),
	});
	list.push({
		name: 'signature of another document',
		body: valid,
		headers: header(fixture.sign(payload('doc_other'))),
	});
	return list;
}

describe('Forged deliveries to the trigger in a real n8n', () => {
	beforeAll(async () => {
		({ id: workflowId, path } = await fixture.activeTriggerWorkflow('forged deliveries'));
	});

	it('refuses every one of over 200 bad deliveries (401 from the trigger, 422 from n8n for unparseable JSON) and starts no execution; valid controls start one each', async () => {
		const valid = payload('doc_hardening000000000001');
		const bad = forgeries(valid);
		expect(bad.length).toBeGreaterThanOrEqual(200);
		const statuses: Array<{ name: string; status: number }> = [];
		for (let start = 0; start < bad.length; start += 16) {
			const batch = bad.slice(start, start + 16);
			const answers = await Promise.all(
				batch.map((forgery) =>
					fixture.stack.client.callWebhook(path, {
						body: forgery.body,
						headers: { 'content-type': 'application/json', ...forgery.headers },
					}),
				),
			);
			answers.forEach((answer, index) =>
				statuses.push({ name: batch[index].name, status: answer.status }),
			);
		}
		const parses = (body: Buffer) => {
			try {
				JSON.parse(body.toString('utf8'));
				return true;
			} catch {
				return body.length === 0;
			}
		};
		const unexpected = statuses.filter((entry, index) =>
			parses(bad[index].body) ? entry.status !== 401 : ![401, 422].includes(entry.status),
		);
		expect(unexpected).toEqual([]);
		const refusedByTrigger = statuses.filter((entry) => entry.status === 401).length;
		const refusedByParser = statuses.filter((entry) => entry.status === 422).length;
		expect(refusedByTrigger).toBeGreaterThanOrEqual(100);
		await fixture.settle();
		expect(await fixture.stack.client.listExecutions(workflowId)).toHaveLength(0);

		const controls = [
			'doc_control0000000000001',
			'doc_control0000000000002',
			'doc_control0000000000003',
		].map(payload);
		for (const body of controls) {
			const answer = await fixture.stack.client.callWebhook(path, {
				body,
				headers: { 'content-type': 'application/json', 'x-service-signature': fixture.sign(body) },
			});
			expect(answer.status).toBe(200);
		}
		const executions = await fixture.stack.client.waitForExecutions(workflowId, 3);
		expect(executions).toHaveLength(3);
		process.stdout.write(
			`forged deliveries: tried ${bad.length}, refused ${refusedByTrigger + refusedByParser} (401 by the trigger: ${refusedByTrigger}, 422 by n8n's JSON parser: ${refusedByParser}), executions 0; valid controls 3 → executions ${executions.length}\n`,
		);
	});

	it('1,000 forged requests write nothing; five genuine deliveries raced by forged ones each run once, also replayed byte for byte after a restart', async () => {
		const send = async (body: Buffer, signature: string) =>
			(
				await fixture.stack.client.callWebhook(path, {
					body,
					headers: { 'content-type': 'application/json', 'x-service-signature': signature },
					timeoutMs: 60_000,
				})
			).status;
		const forgedStatuses: number[] = [];
		let forgedSent = 0;
		/** `count` forged requests at once: well-formed bodies, wrong signatures. */
		const forged = (count: number) =>
			Array.from({ length: count }, async () => {
				const body = payload(`doc_stranger_${forgedSent++}`);
				forgedStatuses.push(await send(body, fixture.sign(body, `guess-${forgedSent}`)));
			});
		const genuine = [1, 2, 3, 4, 5].map((index) => payload(`doc_raced_genuine_00${index}`));
		/** Each genuine delivery at the same moment as 30 forged ones. */
		const raced = async () => {
			const statuses: number[] = [];
			for (const body of genuine)
				await Promise.all([
					(async () => statuses.push(await send(body, fixture.sign(body))))(),
					...forged(30),
				]);
			return statuses;
		};
		const before = await fixture.stack.client.getWorkflow(workflowId);

		expect(await raced()).toEqual([200, 200, 200, 200, 200]);
		while (forgedSent < 1_000) await Promise.all(forged(Math.min(50, 1_000 - forgedSent)));
		const ids = genuine.map((body) => JSON.parse(body.toString()).document_id as string);
		const runsOfGenuine = async () => {
			const runs = await runsPerDocument(fixture.stack.client, workflowId);
			return ids.map((id) => runs.get(id) ?? 0);
		};
		await fixture.exactlyRuns(workflowId, 3 + 5);
		expect(await runsOfGenuine()).toEqual([1, 1, 1, 1, 1]);
		expect(forgedStatuses).toHaveLength(1_000);
		expect(new Set(forgedStatuses)).toEqual(new Set([401]));
		const after = await fixture.stack.client.getWorkflow(workflowId);
		expect(after.staticData).toEqual(before.staticData);
		expect(after.updatedAt).toBe(before.updatedAt);

		await fixture.stack.restartN8n();
		await fixture.stack.client.waitForWebhook(path);
		expect(await raced()).toEqual([200, 200, 200, 200, 200]);
		await fixture.exactlyRuns(workflowId, 3 + 5);
		expect(await runsOfGenuine()).toEqual([1, 1, 1, 1, 1]);
		expect((await fixture.stack.client.getWorkflow(workflowId)).staticData).toEqual(
			before.staticData,
		);
		process.stdout.write(
			`strangers: ${forgedSent} forged requests (401 each) → static data and updatedAt unchanged; 5 genuine deliveries raced by 30 forged each → 1 run each; replayed byte for byte after a restart → still 1 run each\n`,
		);
	}, 600_000);
});
