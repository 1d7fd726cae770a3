#!/bin/sh
# refresh.sh fetches the production CommonJS builds of React, ReactDOM and
# the scheduler from the npm registry and copies them, with their licenses,
# into this directory. Usage: ./refresh.sh [react-version] [scheduler-version]
# (defaults: 19 and the version react-dom depends on). Then update README.md.
set -eu
REACT=${1:-19}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "react@$REACT" "react-dom@$REACT" >/dev/null
for f in react-*.tgz; do mkdir "${f%%-[0-9]*}"; tar xzf "$f" -C "${f%%-[0-9]*}"; done
SCHED=${2:-$(node -p 'require("./react-dom/package/package.json").dependencies.scheduler')}
npm pack --silent "scheduler@$SCHED" >/dev/null
mkdir scheduler && tar xzf scheduler-*.tgz -C scheduler
mkdir -p "$here/react" "$here/react-dom" "$here/scheduler"
cp react/package/LICENSE react/package/cjs/react.production.js react/package/cjs/react-jsx-runtime.production.js "$here/react/"
cp react-dom/package/LICENSE react-dom/package/cjs/react-dom.production.js react-dom/package/cjs/react-dom-client.production.js "$here/react-dom/"
cp scheduler/package/LICENSE scheduler/package/cjs/scheduler.production.js "$here/scheduler/"
for p in react react-dom scheduler; do
	printf '%s %s\n' "$p" "$(node -p "require('./$p/package/package.json').version")"
done
