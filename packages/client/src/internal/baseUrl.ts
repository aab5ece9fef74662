import { InvalidBaseUrl } from "@dbplatform/core"
import * as Effect from "effect/Effect"

/**
 * `baseUrl` without its trailing slashes, once checked: an absolute `http:` or `https:` URL
 * with no user name or password, no query and no fragment (they would go out with every request
 * and be printed wherever a request is named). Fails with `InvalidBaseUrl`, whose message names
 * the URL only by its origin and path, never by the parts refused.
 */
export const checkBaseUrl = (baseUrl: string): Effect.Effect<string, InvalidBaseUrl> =>
  Effect.suspend(() => {
    const refuse = (message: string) => Effect.fail(new InvalidBaseUrl({ message }))
    let url: URL
    try {
      url = new URL(baseUrl)
    } catch {
      return refuse("the base URL is not an absolute URL (e.g. https://host/api/v2)")
    }
    const shown = `${url.origin}${url.pathname}`
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return refuse(`the base URL ${shown} is not http: or https:`)
    }
    if (url.username !== "" || url.password !== "") {
      return refuse(
        `the base URL ${shown} holds a user name or password: send credentials as the API key, not in the URL`
      )
    }
    if (url.search !== "" || url.hash !== "") {
      return refuse(`the base URL ${shown} holds a query or a fragment: request paths are appended to it`)
    }
    return Effect.succeed(baseUrl.replace(/\/+$/, ""))
  })
