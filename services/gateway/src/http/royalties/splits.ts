// Splits and collaborators (proto/api/splits.ts), read and changed in royalties for the signed-in caller:
// - /api/releases/:id/splits (GET, PUT), /api/releases/:id/splits/invitations/:invitationId (POST: resend,
//   reassign, take back) and /api/releases/:id/expenses (POST): the owner or an admin; a collaborator
//   reads (GET) only their own share; anyone else gets the 404 a missing release gets.
// - /api/splits/invitations/:token: what an invitation link shows, to whoever holds the link (GET), and
//   accepting it into the signed-in account (POST …/accept), whatever address that account has.
// - /api/me/earnings: the caller's balance as a payee, shares held for them, per-month statements.
// - /api/me/splits: the /app/splits overview — the caller's releases' split state and the shares others
//   invited them to. It takes no input: a query string is refused (400) rather than silently ignored.
// Bodies are checked here with the contract and again in royalties; answers are parsed before they go out.
import { type Guards, HttpError, type PromiseClient, parseBody } from '@omni/platform';
import type { royalties } from '@omni/proto';
import {
  expenseBody,
  invitationActionBody,
  invitationView,
  myEarnings,
  mySplits,
  releaseSplits,
  setSplitsBody,
  splitsChanged,
} from '@omni/proto/api';
import express, { Router as createRouter, type Request, type Router } from 'express';
import * as z from 'zod/mini';

type RoyaltiesClient = PromiseClient<typeof royalties.RoyaltiesServiceService>;

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

const callerOf = (req: Request) => {
  const p = req.principal!;
  return { userId: p.userId, email: p.email ?? '', isAdmin: p.roles.includes('admin') };
};

function idParam(req: Request, name: string, what: string): string {
  const value = String(req.params[name] ?? '');
  if (!ID.test(value)) throw new HttpError(404, `No such ${what}.`, 'not_found');
  return value;
}

function tokenParam(req: Request): string {
  const value = String(req.params.token ?? '');
  if (!TOKEN.test(value))
    throw new HttpError(
      404,
      'This invitation link is not valid; check that it was copied whole.',
      'link_not_found',
    );
  return value;
}

export function splitRoutes(client: RoyaltiesClient, guards: Guards): Router {
  const router = createRouter();
  const json = express.json({ limit: '64kb' });

  router.get('/releases/:id/splits', guards.requireUser, async (req, res) => {
    const { splitsJson } = await client.getSplits({
      caller: callerOf(req),
      releaseId: idParam(req, 'id', 'release'),
    });
    res.set('Cache-Control', 'no-store').json(z.parse(releaseSplits, JSON.parse(splitsJson)));
  });

  router.put('/releases/:id/splits', guards.requireUser, json, async (req, res) => {
    const releaseId = idParam(req, 'id', 'release');
    const body = parseBody(setSplitsBody, req, { first: true });
    const { splitsJson } = await client.setSplits({
      caller: callerOf(req),
      releaseId,
      bodyJson: JSON.stringify(body),
    });
    res.set('Cache-Control', 'no-store').json(z.parse(splitsChanged, JSON.parse(splitsJson)));
  });

  router.post(
    '/releases/:id/splits/invitations/:invitationId',
    guards.requireUser,
    json,
    async (req, res) => {
      const releaseId = idParam(req, 'id', 'release');
      const invitationId = idParam(req, 'invitationId', 'invitation');
      const body = parseBody(invitationActionBody, req, { first: true });
      const { splitsJson } = await client.actOnInvitation({
        caller: callerOf(req),
        releaseId,
        invitationId,
        bodyJson: JSON.stringify(body),
      });
      res.set('Cache-Control', 'no-store').json(z.parse(splitsChanged, JSON.parse(splitsJson)));
    },
  );

  router.post('/releases/:id/expenses', guards.requireUser, json, async (req, res) => {
    const releaseId = idParam(req, 'id', 'release');
    const body = parseBody(expenseBody, req, { first: true });
    const { splitsJson } = await client.addExpense({
      caller: callerOf(req),
      releaseId,
      bodyJson: JSON.stringify(body),
    });
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json(z.parse(releaseSplits, JSON.parse(splitsJson)));
  });

  router.get('/splits/invitations/:token', async (req, res) => {
    const { invitationJson } = await client.getInvitation({ token: tokenParam(req) });
    res.set('Cache-Control', 'no-store').json(z.parse(invitationView, JSON.parse(invitationJson)));
  });

  router.post('/splits/invitations/:token/accept', guards.requireUser, async (req, res) => {
    const { invitationJson } = await client.acceptInvitation({
      token: tokenParam(req),
      caller: callerOf(req),
    });
    res.set('Cache-Control', 'no-store').json(z.parse(invitationView, JSON.parse(invitationJson)));
  });

  router.get('/me/earnings', guards.requireUser, async (req, res) => {
    const { earningsJson } = await client.getPayeeEarnings({ caller: callerOf(req) });
    res.set('Cache-Control', 'no-store').json(z.parse(myEarnings, JSON.parse(earningsJson)));
  });

  router.get('/me/splits', guards.requireUser, async (req, res) => {
    if (Object.keys(req.query).length)
      throw new HttpError(400, 'GET /api/me/splits takes no parameters.', 'invalid_request');
    const { splitsJson } = await client.getMySplits({ caller: callerOf(req) });
    res.set('Cache-Control', 'no-store').json(z.parse(mySplits, JSON.parse(splitsJson)));
  });

  return router;
}
