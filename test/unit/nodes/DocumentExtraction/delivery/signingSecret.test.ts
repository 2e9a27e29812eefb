/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- made-up test signing secrets, never real ones */
// The credential's Webhook Signing Secret, and this process's short memory of it (REMEMBER_SECRET_MS).
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CREDENTIAL_TYPE } from '../../../../../nodes/DocumentExtraction/constants.ts';
import type * as SigningSecretModule from '../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts';

let {
	credentialSigningSecret,
	freshSigningKeys,
	REMEMBER_SECRET_MS,
	rememberedKeys,
	rememberKeys,
	signingKeys,
	addressSecrets,
	deliveryKeys,
	triggerOwnSecret,
} = {} as typeof SigningSecretModule;

/** Loads the module as a newly started n8n process does: a fresh module graph, nothing remembered. */
async function startProcess(): Promise<void> {
	vi.resetModules();
	({
		credentialSigningSecret,
		freshSigningKeys,
		REMEMBER_SECRET_MS,
		rememberedKeys,
		rememberKeys,
		signingKeys,
		addressSecrets,
		deliveryKeys,
		triggerOwnSecret,
	} = await import('../../../../../nodes/DocumentExtraction/delivery/signingSecret.ts'));
}

const FAKE_SECRET = 'whsec_UNITTEST_signing_secret_1';
const OTHER_FAKE_SECRET = 'whsec_UNITTEST_signing_secret_2';

function reader(credentials: ICredentialDataDecryptedObject) {
	const getCredentials = vi.fn<
		(type: string, itemIndex?: number) => Promise<ICredentialDataDecryptedObject>
	>(async () => credentials);
	return { context: { getCredentials }, getCredentials };
}

// The remembered keys, read and written by their signing secret (what these tests are about).
const rememberedSecret = (credentialId: string, now?: number) =>
	rememberedKeys(credentialId, now)?.signingSecret;
const rememberSecret = (credentialId: string, signingSecret: string, now?: number) =>
	rememberKeys(credentialId, { signingSecret, triggerKey: '' }, now);
const freshSigningSecret = async (
	context: Parameters<typeof SigningSecretModule.freshSigningKeys>[0],
	id?: string,
) => (await freshSigningKeys(context, id)).signingSecret;

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

describe('rememberedSecret / rememberSecret', () => {
	const T0 = 1_700_000_000_000;

	it('REMEMBER_SECRET_MS is 10 seconds', () => {
		expect(REMEMBER_SECRET_MS).toBe(10_000);
	});

	it('nothing is remembered for an unknown credential', () => {
		expect(rememberedSecret('cred-unknown', T0)).toBeUndefined();
	});

	it('remembers up to 1 ms before REMEMBER_SECRET_MS; at exactly REMEMBER_SECRET_MS it is gone', () => {
		rememberSecret('cred-1', FAKE_SECRET, T0);
		expect(rememberedSecret('cred-1', T0)).toBe(FAKE_SECRET);
		expect(rememberedSecret('cred-1', T0 + REMEMBER_SECRET_MS - 1)).toBe(FAKE_SECRET);
		expect(rememberedSecret('cred-1', T0 + REMEMBER_SECRET_MS)).toBeUndefined();
	});

	it('once expired, it stays forgotten even when asked with an earlier time', () => {
		rememberSecret('cred-1', FAKE_SECRET, T0);
		expect(rememberedSecret('cred-1', T0 + REMEMBER_SECRET_MS)).toBeUndefined();
		expect(rememberedSecret('cred-1', T0 + 1)).toBeUndefined();
	});

	it('a clock that went back counts as expired (and the entry is dropped)', () => {
		rememberSecret('cred-1', FAKE_SECRET, T0);
		expect(rememberedSecret('cred-1', T0 - 1)).toBeUndefined();
		expect(rememberedSecret('cred-1', T0)).toBeUndefined();
	});

	it('\'\' is remembered as "the credential has none", distinct from nothing remembered', () => {
		rememberSecret('cred-none', '', T0);
		expect(rememberedSecret('cred-none', T0 + 1)).toBe('');
		expect(rememberedSecret('cred-none', T0 + 1)).not.toBeUndefined();
		expect(rememberedSecret('cred-none', T0 + REMEMBER_SECRET_MS)).toBeUndefined();
	});

	it('remembering again replaces the secret and restarts the period', () => {
		rememberSecret('cred-1', FAKE_SECRET, T0);
		rememberSecret('cred-1', OTHER_FAKE_SECRET, T0 + 9_000);
		expect(rememberedSecret('cred-1', T0 + REMEMBER_SECRET_MS)).toBe(OTHER_FAKE_SECRET);
		expect(rememberedSecret('cred-1', T0 + 9_000 + REMEMBER_SECRET_MS - 1)).toBe(OTHER_FAKE_SECRET);
		expect(rememberedSecret('cred-1', T0 + 9_000 + REMEMBER_SECRET_MS)).toBeUndefined();
	});

	it('keeps credentials apart by id', () => {
		rememberSecret('cred-1', FAKE_SECRET, T0);
		rememberSecret('cred-2', OTHER_FAKE_SECRET, T0);
		expect(rememberedSecret('cred-1', T0 + 1)).toBe(FAKE_SECRET);
		expect(rememberedSecret('cred-2', T0 + 1)).toBe(OTHER_FAKE_SECRET);
	});

	it('without a time, uses the current clock', () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		rememberSecret('cred-1', FAKE_SECRET);
		vi.setSystemTime(T0 + REMEMBER_SECRET_MS - 1);
		expect(rememberedSecret('cred-1')).toBe(FAKE_SECRET);
		vi.setSystemTime(T0 + REMEMBER_SECRET_MS);
		expect(rememberedSecret('cred-1')).toBeUndefined();
	});

	it('keeps at most 1000 credentials, forgetting the oldest first', () => {
		for (let index = 0; index <= 1000; index++)
			rememberSecret(`cred-${index}`, `whsec_UNITTEST_many_${index}`, T0);
		expect(rememberedSecret('cred-0', T0 + 1)).toBeUndefined();
		expect(rememberedSecret('cred-1', T0 + 1)).toBe('whsec_UNITTEST_many_1');
		expect(rememberedSecret('cred-1000', T0 + 1)).toBe('whsec_UNITTEST_many_1000');
	});

	it('a restart forgets every credential', async () => {
		rememberSecret('cred-1', FAKE_SECRET, T0);
		rememberSecret('cred-none', '', T0);
		expect(rememberedSecret('cred-1', T0 + 1)).toBe(FAKE_SECRET);
		await startProcess();
		expect(rememberedSecret('cred-1', T0 + 1)).toBeUndefined();
		expect(rememberedSecret('cred-none', T0 + 1)).toBeUndefined();
	});
});

describe('freshSigningSecret', () => {
	it('deliveries arriving during a read of the same credential share that read, and the secret is remembered', async () => {
		let finish: (credentials: ICredentialDataDecryptedObject) => void = () => undefined;
		const getCredentials = vi.fn(
			async () =>
				await new Promise<ICredentialDataDecryptedObject>((resolve) => (finish = resolve)),
		);
		const context = { getCredentials };
		const reads = Array.from(
			{ length: 10 },
			async () => await freshSigningSecret(context, 'cred-1'),
		);
		finish({ signingSecret: FAKE_SECRET });
		expect(await Promise.all(reads)).toEqual(Array(10).fill(FAKE_SECRET));
		expect(getCredentials).toHaveBeenCalledTimes(1);
		expect(rememberedSecret('cred-1')).toBe(FAKE_SECRET);
	});

	it('a read after the shared one has finished reads again (a new secret is seen at once)', async () => {
		const { context, getCredentials } = reader({ signingSecret: FAKE_SECRET });
		expect(await freshSigningSecret(context, 'cred-1')).toBe(FAKE_SECRET);
		getCredentials.mockResolvedValue({ signingSecret: OTHER_FAKE_SECRET });
		expect(await freshSigningSecret(context, 'cred-1')).toBe(OTHER_FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(2);
		expect(rememberedSecret('cred-1')).toBe(OTHER_FAKE_SECRET);
	});

	it('other credentials are read on their own; without an id nothing is shared or remembered', async () => {
		const { context, getCredentials } = reader({ signingSecret: FAKE_SECRET });
		await Promise.all([
			freshSigningSecret(context, 'cred-1'),
			freshSigningSecret(context, 'cred-2'),
			freshSigningSecret(context),
			freshSigningSecret(context),
		]);
		expect(getCredentials).toHaveBeenCalledTimes(4);
		expect(rememberedSecret('cred-2')).toBe(FAKE_SECRET);
	});

	it('a failed read fails every delivery waiting for it, and the next delivery reads again', async () => {
		const getCredentials = vi.fn(async (): Promise<ICredentialDataDecryptedObject> => {
			throw new Error('credential unavailable');
		});
		const context = { getCredentials };
		const results = await Promise.allSettled([
			freshSigningSecret(context, 'cred-1'),
			freshSigningSecret(context, 'cred-1'),
		]);
		expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		getCredentials.mockResolvedValue({ signingSecret: FAKE_SECRET });
		expect(await freshSigningSecret(context, 'cred-1')).toBe(FAKE_SECRET);
		expect(rememberedSecret('cred-1')).toBe(FAKE_SECRET);
	});
});

describe('deliveryKeys', () => {
	const node = (credentialId?: string) => ({
		id: 'n1',
		name: 'Review finished',
		type: 'trigger',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: {},
		...(credentialId
			? { credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Document Extraction' } } }
			: {}),
	});

	it("the node's credential as this process remembers it; none remembered: read once and remembered", async () => {
		const { context, getCredentials } = reader({ apiKey: 'k', signingSecret: FAKE_SECRET });
		const delivery = { ...context, getNode: () => node('cred-1') };
		expect((await deliveryKeys(delivery)).signingSecret).toBe(FAKE_SECRET);
		expect((await deliveryKeys(delivery)).signingSecret).toBe(FAKE_SECRET);
		expect(getCredentials).toHaveBeenCalledTimes(1);
		rememberSecret('cred-2', OTHER_FAKE_SECRET);
		expect((await deliveryKeys({ ...context, getNode: () => node('cred-2') })).signingSecret).toBe(
			OTHER_FAKE_SECRET,
		);
		expect(getCredentials).toHaveBeenCalledTimes(1);
	});

	it("addressSecrets: the account's secret; for a registered URL the trigger's own for it first", async () => {
		const { context } = reader({ apiKey: 'k', signingSecret: FAKE_SECRET });
		const delivery = { ...context, getNode: () => node('cred-3') };
		const url = 'https://n8n.example/webhook/abc/webhook';
		expect(await addressSecrets(delivery)).toEqual([FAKE_SECRET]);
		expect(await addressSecrets(delivery, url)).toEqual([
			triggerOwnSecret(await signingKeys(context), url),
			FAKE_SECRET,
		]);
	});

	it('a node without a credential id reads every time', async () => {
		const { context, getCredentials } = reader({ apiKey: 'k', signingSecret: FAKE_SECRET });
		const delivery = { ...context, getNode: () => node() };
		await deliveryKeys(delivery);
		await deliveryKeys(delivery);
		expect(getCredentials).toHaveBeenCalledTimes(2);
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

	it('keeps no API key: neither the keys nor the secret contain it', async () => {
		const apiKey = 'UNITTEST-api-key-that-must-not-be-kept';
		const keys = await keysOf({ apiKey });
		expect(JSON.stringify(keys)).not.toContain(apiKey);
		expect(triggerOwnSecret(keys, URL)).not.toContain(apiKey);
	});

	it("is '' without an API key or without a URL (nothing to sign with)", async () => {
		expect(triggerOwnSecret(await keysOf({}), URL)).toBe('');
		expect(triggerOwnSecret(await keysOf({ apiKey: 'key-1' }), '')).toBe('');
	});
});
