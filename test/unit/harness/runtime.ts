/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * The n8n-core services a workflow run needs, set up once per test file (vitest isolates files):
 * n8n-core's real InstanceSettings (in a temporary n8n folder), Cipher, ErrorReporter,
 * ExecutionContextService and BinaryDataService. Only the logger is ours: it records instead of
 * printing, so tests can also search the logs for secrets.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Logger as N8nLogger, LogMetadata } from 'n8n-workflow';

import { Container, LoggerClass, n8nCore, n8nWorkflow } from './n8nModules.ts';

export type BinaryMode = 'default' | 'filesystem';

export interface LogEntry {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	metadata?: LogMetadata;
}

/** Records every log line (n8n-core and the nodes log through the same container Logger). */
export class RecordingLogger implements N8nLogger {
	readonly entries: LogEntry[] = [];

	error(message: string, metadata?: LogMetadata) {
		this.entries.push({ level: 'error', message, metadata });
	}

	warn(message: string, metadata?: LogMetadata) {
		this.entries.push({ level: 'warn', message, metadata });
	}

	info(message: string, metadata?: LogMetadata) {
		this.entries.push({ level: 'info', message, metadata });
	}

	debug(message: string, metadata?: LogMetadata) {
		this.entries.push({ level: 'debug', message, metadata });
	}

	scoped() {
		return this;
	}

	clear() {
		this.entries.length = 0;
	}
}

interface Runtime {
	logger: RecordingLogger;
	userFolder: string;
	n8nFolder: string;
	binaryServices: Map<BinaryMode, InstanceType<typeof n8nCore.BinaryDataService>>;
}

let runtime: Runtime | undefined;

function bootstrap(): Runtime {
	if (runtime) return runtime;

	// InstanceSettings reads its folder from the environment when the container first builds it:
	// a fresh temporary folder, so no real ~/.n8n is read or written.
	const userFolder = mkdtempSync(path.join(tmpdir(), 'n8n-unit-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_ENCRYPTION_KEY = 'unit-test-encryption-key';
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';

	const logger = new RecordingLogger();
	Container.set(LoggerClass, logger as never);
	n8nWorkflow.LoggerProxy.init(logger);

	const instanceSettings = Container.get(n8nCore.InstanceSettings);
	provideEncryptionKeys();
	runtime = {
		logger,
		userFolder,
		n8nFolder: instanceSettings.n8nFolder,
		binaryServices: new Map(),
	};
	process.once('exit', () => rmSync(userFolder, { recursive: true, force: true }));
	return runtime;
}

/** Deletes the temporary n8n folder (stored binary files included). The runtime is not usable afterwards. */
export function disposeRuntime(): void {
	if (runtime) rmSync(runtime.userFolder, { recursive: true, force: true });
}

/**
 * n8n keeps its data keys in the database and hands them to the Cipher through EncryptionKeyProxy;
 * here one in-memory data key (wrapped with the instance key, as n8n stores it) plays that part.
 */
function provideEncryptionKeys(): void {
	const cipher = Container.get(n8nCore.Cipher);
	const instanceKey = Container.get(n8nCore.InstanceSettings).encryptionKey;
	const active = {
		id: 'unit',
		value: cipher.encryptDEKWithInstanceKey(randomBytes(32).toString('hex')),
		algorithm: 'aes-256-gcm',
		format: 'prefixed' as const,
	};
	const legacy = {
		id: 'legacy',
		value: cipher.encryptDEKWithInstanceKey(instanceKey),
		algorithm: 'aes-256-cbc',
		format: 'no-prefix' as const,
	};
	Container.get(n8nCore.EncryptionKeyProxy).setProvider({
		getActiveKey: async () => active,
		getKeyById: async (id: string) => (id === active.id ? active : null),
		getLegacyKey: async () => legacy,
	});
}

export function getLogger(): RecordingLogger {
	return bootstrap().logger;
}

/**
 * Makes n8n-core's BinaryDataService work in `mode`, as n8n does at start-up (`init()` with the
 * configured mode). "filesystem" keeps files on disk under the n8n folder and hands nodes an `id`;
 * "default" keeps them in memory, base64 in the item.
 */
export async function useBinaryMode(mode: BinaryMode): Promise<void> {
	const { binaryServices, n8nFolder, logger } = bootstrap();
	let service = binaryServices.get(mode);
	if (!service) {
		const config = {
			mode,
			availableModes: ['filesystem'],
			localStoragePath: path.join(n8nFolder, `storage-${mode}`),
			signingSecret: 'unit-test-binary-signing-secret',
			dbMaxFileSize: 512,
		};
		service = new n8nCore.BinaryDataService(
			config as never,
			Container.get(n8nCore.ErrorReporter),
			logger as never,
		);
		await service.init();
		binaryServices.set(mode, service);
	}
	Container.set(n8nCore.BinaryDataService, service);
}
