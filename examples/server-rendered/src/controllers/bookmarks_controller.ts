import { redirect, view } from 'vela'
import type { VelaRequest } from 'vela'
import { cast, errorsToJson, from } from 'vela/dbl'
import type { ErrorsJson } from 'vela/dbl'
import { userOf } from '../auth/signed-in.ts'
import { flash, takeFlash } from '../flash.ts'
import { repo } from '../repo.ts'
import { Bookmark } from '../schemas/bookmark.ts'

/** What a valid bookmark is: a title and an http(s) link. */
function changeset(params: Record<string, unknown>) {
  return cast(Bookmark, null, params, ['title', 'url'])
    .validateRequired(['title', 'url'])
    .validateLength('title', { max: 200 })
    .validateFormat('url', /^https?:\/\/\S+$/, { message: 'must start with http:// or https://' })
}

/** The page: the user's bookmarks (newest first), their number, the form, and any flash message. */
async function page(req: VelaRequest, form: Record<string, unknown>, errors: ErrorsJson) {
  const { userId, email } = userOf(req)
  const mine = from(Bookmark).where('user_id', '=', userId)
  const [bookmarks, total] = await Promise.all([repo.all(mine.orderBy(['id', 'desc'])), repo.count(mine)])
  return { email, bookmarks, total, form, errors, flash: takeFlash(req) }
}

/** GET /bookmarks (src/views/bookmarks.liquid). */
export async function index(req: VelaRequest) {
  return view(await page(req, {}, {}))
}

/** POST /bookmarks: saved, and back to the list with a message; or the page again with the form's errors (422). */
export async function create(req: VelaRequest) {
  const res = await repo.insert(changeset(req.params).putChange('user_id', userOf(req).userId))
  if (!res.ok) return view(await page(req, req.params, errorsToJson(res.error)), { status: 422 })
  flash(req, `Saved “${res.value.title}”.`)
  return redirect('/bookmarks', { status: 303 })
}

/** POST /bookmarks/:id/delete: removes one of the user's own bookmarks (someone else's is left alone). */
async function deleteAction(req: VelaRequest) {
  const mine = from(Bookmark).where('user_id', '=', userOf(req).userId)
  const res = await repo.deleteAll(mine.where('id', '=', Number(req.bindings.id) || 0))
  if (!res.ok) throw res.error
  flash(req, res.value.count === 1 ? 'Bookmark removed.' : 'That bookmark was already gone.')
  return redirect('/bookmarks', { status: 303 })
}

export { deleteAction as delete }
