import { tableRows } from '../database/table-rows';
import { Organization } from './organization.entity';

/** The rows of organizations (see TableRows). */
export const ORGANIZATION_ROWS = tableRows<Organization>()('organizations', {
  uuid: ['uuid', 'text'],
  name: ['name', 'text'],
});
