/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * The e2e project's global setup: builds and packs this repository once for the whole run, as a
 * release is packed, and names the tarball in PACKED_ONCE_VARIABLE, so that every n8n the files
 * start installs that one tarball instead of building and packing again (about 15 s a file).
 * The forks vitest starts after this setup inherit the variable.
 */
import {
	buildPackage,
	PACKED_ONCE_VARIABLE,
	packPackage,
	removeTmpDirs,
} from '../../../local-n8n/index.ts';

export default async function setup(): Promise<() => void> {
	// Both e2e projects name this setup; the second finds the first one's tarball.
	if (process.env[PACKED_ONCE_VARIABLE]) return () => {};
	await buildPackage();
	const packed = await packPackage();
	process.env[PACKED_ONCE_VARIABLE] = packed.tarball;
	return () => {
		delete process.env[PACKED_ONCE_VARIABLE];
		removeTmpDirs();
	};
}
