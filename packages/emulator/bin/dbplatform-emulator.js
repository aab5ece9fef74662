#!/usr/bin/env node
// The `dbplatform-emulator` command: runs the built command (`dist/esm/bin/emulator.js`, bundled
// by the build). This file is committed, not built, so that installing the workspace can link
// the command before anything is built (a bin pointing into `dist` made pnpm warn on a fresh clone).
import "../dist/esm/bin/emulator.js"
