/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- made-up test signing secrets, never real ones; process.env.TZ sets the time zone a test runs in */
// The credential's Webhook Signing Secret, and this process's short memory of it (REMEMBER_SECRET_MS).
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import type * as SigningSecretModule from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';

let { credentialSigningSecret, REMEMBER_SECRET_MS, signingKeys, addressSecrets, triggerOwnSecret } =
	{} as typeof SigningSecretModule;

/** Loads the module as a newly started n8n process does: a fresh module graph, nothing remembered. */
async function startProcess(): Promise<void> {
	vi.resetModules();
	({ credentialSigningSecret, REMEMBER_SECRET_MS, signingKeys, addressSecrets, triggerOwnSecret } =
		await import('../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts'));
}

const FAKE_SECRET = 'whsec_UNITTEST_signing_secret_1';
const OTHER_FAKE_SECRET = 'whsec_UNITTEST_signing_secret_2';

function reader(credentials: ICredentialDataDecryptedObject) {
	const getCredentials = vi.fn<
		(type: string, itemIndex?: number) => Promise<ICredentialDataDecryptedObject>
	>(async () => credentials);
	return { context: { getCredentials }, getCredentials };
}

beforeEach(startProcess);

afterEach(() => {
	vi.useRealTimers();
});

describe('credentialSigningSecret', () => {
	it("gives the credential's signingSecret, reading the Document Extraction credential without an item index", async () => {
		const { context, getCredentials } = reader({
			baseUrl: 'https://api.example.com',
			apiKey: 'k',
			signingSecret: FAKE_SECRET,
		});
		expect(await credentialSigningSecret(context)).toBe(FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		// Exactly one argument: no explicit `undefined` item index.
		expect(getCredentials.mock.calls[0]).toEqual([CREDENTIAL_TYPE]);
	});

	it.each([
		['an item index', 3],
		['item index 0 (falsy, still passed)', 0],
	])('with %s passes it on', async (_case, itemIndex) => {
		const { context, getCredentials } = reader({ signingSecret: FAKE_SECRET });
		expect(await credentialSigningSecret(context, itemIndex)).toBe(FAKE_SECRET);
		expect(getCredentials.mock.calls[0]).toEqual([CREDENTIAL_TYPE, itemIndex]);
	});

	it.each([
		['missing', {}],
		['empty', { signingSecret: '' }],
		['a number', { signingSecret: 12345 }],
		['a boolean', { signingSecret: true }],
		['null', { signingSecret: null }],
		['an object', { signingSecret: { value: FAKE_SECRET } }],
		['an array', { signingSecret: [FAKE_SECRET] }],
	])("is '' when the secret is %s", async (_case, credentials) => {
		const { context } = reader(credentials as ICredentialDataDecryptedObject);
		expect(await credentialSigningSecret(context)).toBe('');
	});

	it('keeps surrounding whitespace (the secret is used exactly as entered)', async () => {
		const { context } = reader({ signingSecret: ` ${FAKE_SECRET} ` });
		expect(await credentialSigningSecret(context)).toBe(` ${FAKE_SECRET} `);
	});

	it('a failing credential read is passed on', async () => {
		const context = {
			getCredentials: async () =>
				Promise.reject(new Error('Node does not have any credentials set')),
		};
		await expect(credentialSigningSecret(context)).rejects.toThrow(
			'Node does not have any credentials set',
		);
	});
});

/** A delivery to a node whose credential (id `credentialId`, none when undefined) holds `credentials`. */
function delivery(credentials: ICredentialDataDecryptedObject, credentialId?: string) {
	const { context, getCredentials } = reader(credentials);
	const node = {
		id: 'n1',
		name: 'Review finished',
		type: 'trigger',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
		...(credentialId
			? { credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Document Extraction' } } }
			: {}),
	};
	return { context: { ...context, getNode: () => node }, getCredentials };
}

/** The account's signing secret a delivery is checked with, as addressSecrets gives it. */
const secretOf = async (context: Parameters<typeof SigningSecretModule.addressSecrets>[0]) =>
	(await addressSecrets(context)).current[0];

describe('the remembered credential (REMEMBER_SECRET_MS), as deliveries see it', () => {
	const T0 = 1_700_000_000_000;

	beforeEach(() => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
	});

	it('REMEMBER_SECRET_MS is 10 seconds', () => {
		expect(REMEMBER_SECRET_MS).toBe(10_000);
	});

	it('read once, then remembered up to 1 ms before REMEMBER_SECRET_MS; at exactly REMEMBER_SECRET_MS read again', async () => {
		const { context, getCredentials } = delivery({ signingSecret: FAKE_SECRET }, 'cred-1');
		expect(await secretOf(context)).toBe(FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		vi.setSystemTime(T0 + REMEMBER_SECRET_MS - 1);
		expect(await secretOf(context)).toBe(FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
		getCredentials.mockResolvedValue({ signingSecret: OTHER_FAKE_SECRET });
		expect(await secretOf(context)).toBe(OTHER_FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});

	it('what is read again is remembered for a new period', async () => {
		const { context, getCredentials } = delivery({ signingSecret: FAKE_SECRET }, 'cred-1');
		await secretOf(context);
		vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
		await secretOf(context);
		vi.setSystemTime(T0 + 2 * REMEMBER_SECRET_MS - 1);
		await secretOf(context);
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});

	it('a clock that went back counts as expired: the credential is read again', async () => {
		const { context, getCredentials } = delivery({ signingSecret: FAKE_SECRET }, 'cred-1');
		await secretOf(context);
		vi.setSystemTime(T0 - 1);
		await secretOf(context);
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});

	it('\'\' is remembered as "the credential has none", not read again', async () => {
		const { context, getCredentials } = delivery({ apiKey: 'k' }, 'cred-none');
		expect((await addressSecrets(context)).current).toEqual(['']);
		vi.setSystemTime(T0 + 1);
		expect((await addressSecrets(context)).current).toEqual(['']);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('keeps credentials apart by id', async () => {
		const first = delivery({ signingSecret: FAKE_SECRET }, 'cred-1');
		const second = delivery({ signingSecret: OTHER_FAKE_SECRET }, 'cred-2');
		for (let round = 0; round < 2; round++) {
			expect(await secretOf(first.context)).toBe(FAKE_SECRET);
			expect(await secretOf(second.context)).toBe(OTHER_FAKE_SECRET);
		}
		expect([
			first.getCredentials.mock.calls.length,
			second.getCredentials.mock.calls.length,
		]).toEqual([1, 1]);
	});

	it('keeps at most 1000 credentials, forgetting the oldest first', async () => {
		const deliveries = Array.from({ length: 1001 }, (_, index) =>
			delivery({ signingSecret: `whsec_UNITTEST_many_${index}` }, `cred-${index}`),
		);
		for (const { context } of deliveries) await secretOf(context);
		await secretOf(deliveries[1].context);
		await secretOf(deliveries[1000].context);
		await secretOf(deliveries[0].context);
		expect(deliveries.slice(0, 2).map((d) => d.getCredentials.mock.calls.length)).toEqual([2, 1]);
		expect(deliveries[1000].getCredentials).toHaveBeenCalledTimes(1);
	});

	it('a node without a credential id reads every time', async () => {
		const { context, getCredentials } = delivery({ signingSecret: FAKE_SECRET });
		await secretOf(context);
		await secretOf(context);
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});

	it('a restart forgets every credential', async () => {
		const { context, getCredentials } = delivery({ signingSecret: FAKE_SECRET }, 'cred-1');
		await secretOf(context);
		await secretOf(context);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		await startProcess();
		await secretOf(context);
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});
});

describe('reading the credential for deliveries', () => {
	it('deliveries arriving during a read of the same credential share that read, and the secret is remembered', async () => {
		let finish: (credentials: ICredentialDataDecryptedObject) => void = () => undefined;
		const { context, getCredentials } = delivery({}, 'cred-1');
		getCredentials.mockImplementation(
			async () =>
				await new Promise<ICredentialDataDecryptedObject>((resolve) => (finish = resolve)),
		);
		const reads = Array.from({ length: 10 }, async () => await secretOf(context));
		finish({ signingSecret: FAKE_SECRET });
		expect(await Promise.all(reads)).toEqual(Array(10).fill(FAKE_SECRET));
		expect(await secretOf(context)).toBe(FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it('other credentials are read on their own; without an id nothing is shared or remembered', async () => {
		const { context, getCredentials } = reader({ signingSecret: FAKE_SECRET });
		const withNode = (credentialId?: string) => ({
			...context,
			getNode: delivery({}, credentialId).context.getNode,
		});
		await Promise.all([
			secretOf(withNode('cred-1')),
			secretOf(withNode('cred-2')),
			secretOf(withNode()),
			secretOf(withNode()),
		]);
		expect(getCredentials).toHaveBeenCalledTimes(4);
		await secretOf(withNode('cred-2'));
		expect(getCredentials).toHaveBeenCalledTimes(4);
		await secretOf(withNode());
		expect(getCredentials).toHaveBeenCalledTimes(5);
	});

	it('a failed read fails every delivery waiting for it, and the next delivery reads again', async () => {
		const { context, getCredentials } = delivery({}, 'cred-1');
		getCredentials.mockRejectedValue(new Error('credential unavailable'));
		const results = await Promise.allSettled([secretOf(context), secretOf(context)]);
		expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		getCredentials.mockResolvedValue({ signingSecret: FAKE_SECRET });
		expect(await secretOf(context)).toBe(FAKE_SECRET);
		expect(await secretOf(context)).toBe(FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(2);
	});

	it("addressSecrets: the account's secret; for a registered URL the trigger's own for it first", async () => {
		const { context } = delivery({ apiKey: 'k', signingSecret: FAKE_SECRET }, 'cred-3');
		const url = 'https://n8n.example/webhook/abc/webhook';
		expect(await addressSecrets(context)).toEqual({ current: [FAKE_SECRET], previous: [''] });
		expect(await addressSecrets(context, url)).toEqual({
			current: [triggerOwnSecret(await signingKeys(context), url), FAKE_SECRET],
			previous: ['', ''],
		});
	});

	it('addressSecrets (N68): the previous signing secret and the own secret of the previous API key, with the time they are accepted until', async () => {
		const until = '2026-11-27T10:00:00Z';
		const { context } = delivery(
			{
				apiKey: 'key-2',
				signingSecret: OTHER_FAKE_SECRET,
				previousApiKey: 'key-1',
				previousSigningSecret: FAKE_SECRET,
				acceptPreviousUntil: until,
			},
			'cred-4',
		);
		const url = 'https://n8n.example/webhook/abc/webhook';
		const keyOwn = async (apiKey: string) =>
			triggerOwnSecret(await signingKeys(reader({ apiKey }).context), url);
		expect(await addressSecrets(context, url)).toEqual({
			current: [await keyOwn('key-2'), OTHER_FAKE_SECRET],
			previous: [await keyOwn('key-1'), FAKE_SECRET],
			previousUntil: Date.parse(until),
		});
		expect(await addressSecrets(context)).toEqual({
			current: [OTHER_FAKE_SECRET],
			previous: [FAKE_SECRET],
			previousUntil: Date.parse(until),
		});
	});
});

describe("the trigger's own secret (docs/spec-decisions.md#n5)", () => {
	const URL = 'https://n8n.example/webhook/abc/webhook';
	const OTHER_URL = 'https://n8n.example/webhook-test/abc/webhook';
	const keysOf = async (credentials: ICredentialDataDecryptedObject) =>
		await signingKeys(reader(credentials).context);

	it("is not the credential's signing secret, and does not change with it (N61)", async () => {
		const withSecret = triggerOwnSecret(
			await keysOf({ apiKey: 'key-1', signingSecret: FAKE_SECRET }),
			URL,
		);
		expect(withSecret).not.toBe(FAKE_SECRET);
		expect(
			triggerOwnSecret(await keysOf({ apiKey: 'key-1', signingSecret: OTHER_FAKE_SECRET }), URL),
		).toBe(withSecret);
	});

	it('64 hex characters derived from the API key and the URL: the same every time, different per URL and per key', async () => {
		const keys = await keysOf({ apiKey: 'key-1', signingSecret: '' });
		const secret = triggerOwnSecret(keys, URL);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		expect(triggerOwnSecret(await keysOf({ apiKey: 'key-1' }), URL)).toBe(secret);
		expect(triggerOwnSecret(keys, OTHER_URL)).not.toBe(secret);
		expect(triggerOwnSecret(await keysOf({ apiKey: 'key-2' }), URL)).not.toBe(secret);
	});

	it('keeps no API key: neither the keys nor the secret contain it, nor the previous one (N68)', async () => {
		const apiKey = 'UNITTEST-api-key-that-must-not-be-kept';
		const previousApiKey = 'UNITTEST-previous-api-key-that-must-not-be-kept';
		const keys = await keysOf({ apiKey, previousApiKey });
		expect(JSON.stringify(keys)).not.toContain(apiKey);
		expect(JSON.stringify(keys)).not.toContain(previousApiKey);
		expect(triggerOwnSecret(keys, URL)).not.toContain(apiKey);
	});

	it("is '' without an API key or without a URL (nothing to sign with)", async () => {
		expect(triggerOwnSecret(await keysOf({}), URL)).toBe('');
		expect(triggerOwnSecret(await keysOf({ apiKey: 'key-1' }), '')).toBe('');
	});
});

describe('"Accept Previous Until (UTC)" (N68): until when the previous secret and key verify', () => {
	const untilOf = async (acceptPreviousUntil: unknown) =>
		(
			await signingKeys(
				reader({ apiKey: 'k', acceptPreviousUntil } as ICredentialDataDecryptedObject).context,
			)
		).previousUntil;
	const timeZone = process.env.TZ;

	afterEach(() => {
		if (timeZone === undefined) delete process.env.TZ;
		else process.env.TZ = timeZone;
	});

	it("a date and time without an offset (as the editor's picker gives it) is UTC, whatever n8n's time zone", async () => {
		process.env.TZ = 'Pacific/Auckland';
		expect(await untilOf('2026-11-27T10:00:00')).toBe(Date.parse('2026-11-27T10:00:00Z'));
		process.env.TZ = 'America/New_York';
		expect(await untilOf('2026-11-27T10:00:00')).toBe(Date.parse('2026-11-27T10:00:00Z'));
	});

	it.each([
		['UTC with Z', '2026-11-27T10:00:00Z', '2026-11-27T10:00:00Z'],
		['with fractions', '2026-11-27T10:00:00.500Z', '2026-11-27T10:00:00.500Z'],
		['an offset', '2026-11-27T12:00:00+02:00', '2026-11-27T10:00:00Z'],
		['a date only (its start, UTC)', '2026-11-27', '2026-11-27T00:00:00Z'],
	])('%s: as given', async (_case, value, utc) => {
		expect(await untilOf(value)).toBe(Date.parse(utc));
	});

	it.each([
		['missing', undefined],
		['empty', ''],
		['not a date', 'next week'],
		['a number', 1_800_000_000_000],
		['a date and time without the ISO "T"', '2026-11-27 10:00'],
		['a date in another notation', '11/27/2026'],
	])('%s: none (the previous ones verify nothing)', async (_case, value) => {
		expect(await untilOf(value)).toBeUndefined();
	});
});
