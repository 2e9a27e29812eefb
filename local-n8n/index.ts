// The local n8n runtime: one implementation for `npm start`, `npm run bench` and the end-to-end tests.
// See README.md in this folder.

export * from './executionData.ts';
export * from './installN8n.ts';
export * from './log.ts';
export * from './n8nApi.ts';
export * from './n8nProcess.ts';
export * from './paths.ts';
export * from './processes.ts';
export * from './communityPackage.ts';
export * from './sandbox.ts';
export * from './sandboxAccounts.ts';
export * from './stack.ts';
export * from './tls.ts';
export * from './workflows.ts';
export * from './flows.ts';
export * from './systemPackages.ts';
export * from './queue/postgres.ts';
export * from './queue/redis.ts';
export * from './queue/haproxy.ts';
export * from './queue/queueStack.ts';
