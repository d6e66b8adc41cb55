// ESLint on the screen's modules (scripts/check-js.sh runs it from the repository's root with
// --config, so the patterns are relative to the root): the recommended rules, in a browser.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    files: ["src/judges/web/static/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.browser}},
  },
];
