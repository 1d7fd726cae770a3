#!/bin/sh
# refresh.sh re-vendors the workbench's UI libraries from the npm registry.
#
# For each pinned version below it runs `npm pack`, copies the package's
# browser ES module build here, rewrites the bare imports between them
# ("preact", "preact/hooks", "@preact/signals-core") to the sibling files
# (the page has no bundler and its CSP forbids an inline import map), drops
# the source-map comment, copies the licence, and rewrites the table in
# README.md with each file's version and sha256. web/vendor_test.go fails
# when the files, the table and these pins disagree.
#
# Usage: web/workbench/vendor/refresh.sh   (needs npm and network access)
set -eu

PREACT=10.29.0
SIGNALS=2.8.2
SIGNALS_CORE=1.14.5
HTM=3.1.1

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm pack --silent "preact@$PREACT" "@preact/signals@$SIGNALS" "@preact/signals-core@$SIGNALS_CORE" "htm@$HTM" >/dev/null
for f in *.tgz; do
	mkdir "${f%.tgz}"
	tar -xzf "$f" -C "${f%.tgz}"
done

rows=""
# vendor PACKAGE VERSION DIR SOURCE TARGET
vendor() {
	sed -e 's#from"preact"#from"./preact.module.js"#g' \
		-e 's#from"preact/hooks"#from"./hooks.module.js"#g' \
		-e 's#from"@preact/signals-core"#from"./signals-core.module.js"#g' \
		-e 's|//# sourceMappingURL=.*$||' \
		"$tmp/$3/package/$4" >"$here/$5"
	sum=$(sha256sum "$here/$5" | cut -d' ' -f1)
	rows="$rows| \`$5\` | $1 | $2 | \`$4\` | $sum |
"
}
vendor preact "$PREACT" "preact-$PREACT" dist/preact.module.js preact.module.js
vendor preact "$PREACT" "preact-$PREACT" hooks/dist/hooks.module.js hooks.module.js
vendor @preact/signals "$SIGNALS" "preact-signals-$SIGNALS" dist/signals.module.js signals.module.js
vendor @preact/signals-core "$SIGNALS_CORE" "preact-signals-core-$SIGNALS_CORE" dist/signals-core.module.js signals-core.module.js
vendor htm "$HTM" "htm-$HTM" dist/htm.module.js htm.module.js
cp "$tmp/preact-$PREACT/package/LICENSE" "$here/LICENSE-preact"
cp "$tmp/preact-signals-$SIGNALS/package/LICENSE" "$here/LICENSE-preact-signals"
cp "$tmp/htm-$HTM/package/LICENSE" "$here/LICENSE-htm"

# Replace the table between the markers in README.md.
table="| file | package | version | from | sha256 |
|---|---|---|---|---|
$rows"
awk -v table="$table" '
	/<!-- vendored:begin -->/ { print; printf "%s", table; skip = 1; next }
	/<!-- vendored:end -->/ { skip = 0 }
	!skip { print }
' "$here/README.md" >"$tmp/README.md"
mv "$tmp/README.md" "$here/README.md"
echo "vendored preact $PREACT, @preact/signals $SIGNALS, @preact/signals-core $SIGNALS_CORE, htm $HTM" >&2
