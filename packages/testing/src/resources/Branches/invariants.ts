/**
 * The invariants of a project's branch tree, which a seed or a snapshot must keep (docs/design.md
 * §4): a project with branches has exactly one default branch, which does not expire; a branch's
 * parent is a branch of its project; a branch's compute endpoints are of its project, at most
 * one of them `read_write`; a database's owner is a role of its branch.
 */
import { get, itemsOf, type State } from "../../engine/state.js"

/** Everything wrong with the branch trees of `state`, one line each, project by project (empty when none). */
export const branchTreeProblems = (state: State): Array<string> => {
  const found: Array<string> = []
  for (const project of itemsOf(state, "projects")) {
    const branches = Array.from(itemsOf(state, "branches", project.id))
    const defaults = branches.filter((branch) => branch.default).length
    if (branches.length > 0 && defaults !== 1) {
      found.push(`project ${project.id} has ${defaults} default branches, not one`)
    }
    for (const branch of branches) {
      if (branch.default && branch.expires_at !== undefined) {
        found.push(`branch ${branch.id} is its project's default and expires: the default branch cannot expire`)
      }
      const parent = branch.parent_id === undefined ? undefined : get(state, "branches", branch.parent_id)
      if (branch.parent_id !== undefined && parent?.project_id !== project.id) {
        found.push(`branch ${branch.id}: parent ${branch.parent_id} is not a branch of project ${project.id}`)
      }
      let readWrite = 0
      for (const endpoint of itemsOf(state, "endpoints", branch.id)) {
        if (endpoint.project_id !== project.id) {
          found.push(`endpoint ${endpoint.id}: project ${endpoint.project_id} is not its branch's (${project.id})`)
        }
        if (endpoint.type === "read_write") readWrite += 1
      }
      if (readWrite > 1) found.push(`branch ${branch.id} has ${readWrite} read_write endpoints, at most one`)
      for (const database of itemsOf(state, "databases", branch.id)) {
        if (get(state, "roles", `${branch.id}/${database.owner_name}`) === undefined) {
          found.push(`database ${database.id}: owner ${database.owner_name} is not a role of branch ${branch.id}`)
        }
      }
    }
  }
  return found
}
