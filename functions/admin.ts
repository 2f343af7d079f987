import { createAdminSite, SETTINGS_PAGES_ONLY } from '../lib/admin-ui/site.js'
import { bundledOpenApi } from '../lib/openapi/bundled.js'
import { handle } from './api-gateway.js'
import { lambdaServices } from './runtime.js'

const services = await lambdaServices()
// The admin function may write settings: a new deployment's public role is fixed at its first start.
await services.access.ensurePublicRole()
// Its OpenAPI document: the file the stack wrote beside the bundle (the builder is not bundled).
// The media library's pages and the documents' pages are the admin media function's (functions/admin-media.ts):
// this bundle holds neither them nor the content apps they call.
export const handler = handle(createAdminSite(services, bundledOpenApi(), false, SETTINGS_PAGES_ONLY))
