/**
 * The pagination object of list responses (`docs/contract.md` §2.6).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * `{ cursor }`: pass `cursor` back (URL-encoded) as the `cursor` query parameter to get the
 * next page. For operations it is the `created_at` of the page's last item, with fractional
 * seconds, e.g. `2022-12-09T08:47:52.20417Z`; a real server sends one on the last page too
 * (docs/contract.md §10.5), so a short or empty page is what ends a walk.
 *
 * @since 0.1.0
 * @category schemas
 */
export class Pagination extends Schema.Class<Pagination>("Pagination")({
  cursor: Schema.String.pipe(Schema.minLength(1))
}) {}

/**
 * `{ next?, sort_by?, sort_order? }`, the pagination object of the branch list (`docs/contract.md`
 * §11.4): pass `next` back as the `cursor` query parameter, with the same sort, to get the next
 * page; a page without `next` is the last. `sort_by` and `sort_order` repeat the sort the page
 * was made with.
 *
 * @since 0.3.0
 * @category schemas
 */
export class CursorPagination extends Schema.Class<CursorPagination>("CursorPagination")({
  next: Schema.optional(Schema.String),
  sort_by: Schema.optional(Schema.String),
  sort_order: Schema.optional(Schema.String)
}) {}
