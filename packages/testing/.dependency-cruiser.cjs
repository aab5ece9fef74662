/**
 * The fake's layout, checked on every `pnpm test` (docs/design.md §4.1): no import circle among
 * its modules, and the engine (`src/engine/`) imports no resource (`src/resources/`).
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: a change anywhere in it can reach everywhere in it.",
      from: { path: "^src/" },
      to: { circular: true }
    },
    {
      name: "engine-not-to-resources",
      severity: "error",
      comment:
        "The engine is below every resource: it imports none of them, nor what assembles them (internal/), nor a public module but the plain data of Fault.ts.",
      from: { path: "^src/engine/" },
      to: { path: "^src/", pathNot: "^src/(engine/|Fault\\.ts$)" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.src.json" }
  }
}
