// Stands in for zod's table of locales (zod/v4/locales/index.js) in the
// bundle: zod re-exports all of its 60-odd locales from its namespace,
// which no bundler can drop, and they were a sixth of viewer.js. The
// viewer shows no zod messages; English, zod's default, is kept.
export { default as en } from "zod/v4/locales/en.js";
