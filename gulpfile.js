// Copies what tsc does not: node icons and codex files, next to the compiled nodes in dist/.
const { src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports.build = copyAssets;
exports.default = copyAssets;
