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
