import { handle } from 'hono/aws-lambda'
import { createAdminSite } from '../lib/admin-ui/site.js'
import { lambdaServices } from './runtime.js'

export const handler = handle(createAdminSite(await lambdaServices()))
