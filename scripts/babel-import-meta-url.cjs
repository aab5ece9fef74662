/**
 * A Babel plugin for the CommonJS build of a package (`build-cjs`): `import.meta.url`, which only
 * an ES module may read, becomes the same URL computed from CommonJS's `__filename`. A module that
 * finds a file next to itself (the emulator's worker thread entry, `internal/ddlThread.ts`) then
 * loads under `require` too.
 */
module.exports = ({ template }) => ({
  name: "import-meta-url",
  visitor: {
    MemberExpression(path) {
      const { object, property } = path.node
      if (
        object.type === "MetaProperty" &&
        object.meta.name === "import" &&
        object.property.name === "meta" &&
        !path.node.computed &&
        property.type === "Identifier" &&
        property.name === "url"
      ) {
        path.replaceWith(template.expression.ast`require("node:url").pathToFileURL(__filename).href`)
      }
    }
  }
})
