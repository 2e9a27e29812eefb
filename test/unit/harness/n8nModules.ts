/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/**
 * The n8n modules, exactly as n8n-core itself sees them.
 *
 * n8n-core is CommonJS and brings its own copies of some packages (its `@n8n/di` container and
 * `@n8n/backend-common` logger live in node_modules/n8n-core/node_modules). A plain `import` from a
 * test would get other copies: a second DI container n8n-core never reads, and the ESM build of
 * n8n-workflow whose error classes are not the ones n8n-core checks with `instanceof`. So everything
 * is required from n8n-core's own location; in n8n, a community node's `require('n8n-workflow')`
 * likewise gets n8n's one copy (it is a peer dependency).
 */
import { createRequire } from 'node:module';

import type * as N8nWorkflow from 'n8n-workflow';
import type * as N8nCore from 'n8n-core';

const requireFromHere = createRequire(import.meta.url);
const n8nCorePath = requireFromHere.resolve('n8n-core');
const requireFromCore = createRequire(n8nCorePath);

export const n8nCore = requireFromCore('n8n-core') as typeof N8nCore;

/** The CommonJS n8n-workflow that n8n-core uses (one instance in the process). */
export const n8nWorkflow = requireFromCore('n8n-workflow') as typeof N8nWorkflow;

interface DiContainer {
	get<T>(type: abstract new (...args: never[]) => T): T;
	set<T>(type: abstract new (...args: never[]) => T, instance: T): void;
	has(type: unknown): boolean;
}

/** n8n-core's DI container. */
export const Container = (requireFromCore('@n8n/di') as { Container: DiContainer }).Container;

/** The Logger class n8n-core asks the container for. */
export const LoggerClass = (
	requireFromCore('@n8n/backend-common') as { Logger: abstract new (...args: never[]) => unknown }
).Logger;
