/**
 * Checks of answers about an item of a branch (a database, a role: `{ branch_id, name }`), for the
 * services' `Resource.Checks` (`docs/contract.md` §15).
 */

/** An item of a branch, as an answer names it. */
interface BranchItem {
  readonly branch_id: string
  readonly name: string
}

/**
 * What is wrong with `item`, a `label` (`database`, `role`), as the answer about the one named
 * `name` (any, when `undefined`) of the branch `branchId`, if anything.
 */
export const notAbout = (label: string, branchId: string, name: string | undefined, item: BranchItem) =>
  item.branch_id !== branchId
    ? `the answer is about a ${label} of branch ${item.branch_id}, not ${branchId}`
    : name !== undefined && item.name !== name
      ? `the answer is about ${label} ${item.name}, not ${name}`
      : undefined

/** What is wrong with the first of `items` that is not of the branch `branchId`, if anything. */
export const notAllOf = (label: string, branchId: string, items: ReadonlyArray<BranchItem>) =>
  items.map((item) => notAbout(label, branchId, undefined, item)).find((problem) => problem !== undefined)
