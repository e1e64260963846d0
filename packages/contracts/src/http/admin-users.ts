import { z } from 'zod';
import { RoleSchema } from '../auth.ts';
import { defineRoute } from '../routes.ts';
import { MessageSchema } from './auth.ts';
import { USER_MESSAGES } from './user.ts';

export const ADMIN_USER_MESSAGES = {
  alreadyActivated: 'Deze gebruiker is al geactiveerd.',
  changedMeanwhile: 'Deze gebruiker werd net gewijzigd. Probeer het opnieuw.',
  activated: 'Gebruiker geactiveerd.',
  deleted: 'Gebruiker verwijderd.',
  cannotDeleteSelf: 'Je kunt je eigen account niet verwijderen.',
  onlyBeheerderDeletesAdmins: 'Alleen een beheerder kan een beheerder of moderator verwijderen.',
} as const;

/** A MongoDB ObjectId, as every user id of the auth service is; lowercased, so it compares with the token's. */
export const UserIdParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/i, USER_MESSAGES.invalidUserId).toLowerCase(),
});

/** A row of 'Gebruikersbeheer' (spec 2 §3 "Admin user row"): admins see email and coordinates. */
export const AdminUserSchema = z
  .object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    city: z.string().optional(),
    latitude: z.number().optional(),
    longitude: z.number().optional(),
    /** Premium counts as a role here (spec 2 §3). */
    role: z.array(RoleSchema),
    isPremium: z.boolean(),
    activated: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUserListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
  /** Words that must each appear in the name, email or city. */
  q: z.string().trim().max(100, 'Een zoekterm is hoogstens 100 tekens lang.').optional(),
  /** The filter Alle / Actieve / Inactieve: activated or not. */
  activated: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

export const AdminUserListSchema = z
  .object({ users: z.array(AdminUserSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'AdminUserList' });

export const adminUserRoutes = {
  list: defineRoute({
    service: 'auth',
    method: 'get',
    path: '/api/admin/users',
    summary: 'Gebruikersbeheer: gebruikers per pagina, nieuwste eerst, te zoeken en te filteren op geactiveerd',
    access: 'admin',
    query: AdminUserListQuerySchema,
    response: AdminUserListSchema,
  }),
  activate: defineRoute({
    service: 'auth',
    method: 'post',
    path: '/api/user/activate/:id',
    summary: 'Een gebruiker activeren zonder activatiemail (beheer)',
    access: 'admin',
    params: UserIdParamsSchema,
    response: z.object({ message: z.string(), user: AdminUserSchema }),
  }),
  delete: defineRoute({
    service: 'auth',
    method: 'delete',
    path: '/api/admin/delete/:id',
    summary: 'Een gebruiker verwijderen (beheer); trekt zijn tokens in',
    access: 'admin',
    params: UserIdParamsSchema,
    response: MessageSchema,
  }),
};
