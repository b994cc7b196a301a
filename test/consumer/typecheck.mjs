#!/usr/bin/env node
/**
 * `node typecheck.mjs <tsconfig>`: TypeScript's own checker over a consumer app, reporting the
 * app's code and the package's declarations (node_modules/portico) the way `tsc -p` does
 * (`file(line,col): error TSnnnn: text`, exit 1 when there is one), and nothing about other
 * packages' declarations. `tsc` with `skipLibCheck: false` checks every declaration file of
 * the program, and ours are a few hundred lines of its ~100,000 (viem, abitype, ox, React):
 * 95 % of its check time went to files whose errors were never ours to report. Here the
 * program is the same (options, resolution, `skipLibCheck: false`); only the files asked for
 * semantic diagnostics differ, and the checker still resolves whatever those files reach.
 */
import { dirname, resolve } from 'node:path'
import ts from 'typescript'

const configPath = resolve(process.argv[2] ?? 'tsconfig.json')
const read = ts.readConfigFile(configPath, ts.sys.readFile)
if (read.error) {
  console.error(ts.formatDiagnostic(read.error, host()))
  process.exit(2)
}
const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath), undefined, configPath)
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences })

function host() {
  return { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dirname(configPath), getNewLine: () => '\n' }
}

/** The app's own files and the package under test; another package's declarations are its own. */
const ours = (file) => !file.fileName.includes('/node_modules/') || file.fileName.includes('/node_modules/portico/')

const diagnostics = [...parsed.errors, ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]
for (const file of program.getSourceFiles()) {
  if (!ours(file)) continue
  diagnostics.push(...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file))
}
const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error)
if (errors.length) process.stdout.write(ts.formatDiagnostics(errors, host()))
console.log(`checked ${program.getSourceFiles().filter(ours).length} of ${program.getSourceFiles().length} files: ${errors.length} error(s)`)
process.exit(errors.length ? 1 : 0)
