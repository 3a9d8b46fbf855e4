// The contributor upload page's API (/upload?token=…): the link's token travels in X-Upload-Token; a
// session is optional except for audio releases. Without one, the page's own secret (X-Contributor-Key)
// says which contributor sends and submits a file, so two people on one link cannot touch each other's. cms checks the link on every call and says why it no
// longer works (404 not valid, 410 revoked / expired / used up, 403 no files). Every route is rate-limited
// per client address and per link (contributor-rate-limits.ts): 429 with Retry-After past the limit.
import { type Guards, type PromiseClient, parseBody } from '@omni/platform';
import type { cms } from '@omni/proto';
import {
  CONTRIBUTOR_KEY_HEADER,
  contributorReleaseBody,
  contributorSignBody,
  contributorUploadBody,
  UPLOAD_TOKEN_HEADER,
} from '@omni/proto/api';
import { Router as createRouter, type Request, type Router } from 'express';
import {
  type ContributorLimiter,
  LINK_LOOKUPS_PER_MINUTE,
  SIGNINGS_PER_MINUTE,
  SUBMISSIONS_PER_MINUTE,
} from './contributor-rate-limits';
import { assetJson, linkJson } from './json';

const headerOf = (req: Request, name: string) => {
  const header = req.headers[name.toLowerCase()];
  return typeof header === 'string' ? header.trim().slice(0, 256) : '';
};
const tokenOf = (req: Request) => headerOf(req, UPLOAD_TOKEN_HEADER);
/** cms checks its shape and keeps only its hash. */
const contributorKeyOf = (req: Request) => headerOf(req, CONTRIBUTOR_KEY_HEADER);

export function contributorRoutes(
  client: PromiseClient<typeof cms.CmsServiceService>,
  guards: Guards,
  limited: ContributorLimiter,
): Router {
  const router = createRouter();
  router.use(guards.optionalUser);
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/link', limited('link', LINK_LOOKUPS_PER_MINUTE), async (req, res) => {
    const { link } = await client.resolveUploadLink({ token: tokenOf(req) });
    const l = linkJson(link!);
    res.json({
      pageSlug: l.pageSlug,
      pageTitle: l.pageTitle,
      expiresAt: l.expiresAt,
      usesLeft: Math.max(0, l.maxUses - l.uses),
      allowFile: l.allowFile,
      allowUrl: l.allowUrl,
    });
  });

  router.post('/uploads-sign', limited('sign', SIGNINGS_PER_MINUTE), async (req, res) => {
    const body = parseBody(contributorSignBody, req, { first: true });
    const signed = await client.signContributorUpload({
      token: tokenOf(req),
      userId: req.principal?.userId ?? '',
      contributorKey: contributorKeyOf(req),
      ...body,
    });
    res.json(signed);
  });

  router.post('/uploads', limited('submit', SUBMISSIONS_PER_MINUTE), async (req, res) => {
    const body = parseBody(contributorUploadBody, req, { first: true });
    const out = await client.submitContributorUpload(
      {
        token: tokenOf(req),
        userId: req.principal?.userId ?? '',
        contributorKey: contributorKeyOf(req),
        bucket: body.bucket ?? '',
        fileKey: body.fileKey ?? '',
        files: body.files ?? [],
        title: body.title,
        description: body.description,
      },
      { deadlineMs: 65_000 },
    );
    res.status(201).json({
      status: 'pending',
      path: out.path,
      url: out.url,
      asset: assetJson(out.asset!),
      files: out.files.map((f) => ({ path: f.path, url: f.url, asset: assetJson(f.asset!) })),
    });
  });

  router.post('/releases', limited('submit', SUBMISSIONS_PER_MINUTE), async (req, res) => {
    const body = parseBody(contributorReleaseBody, req, { first: true });
    const out = await client.submitRelease(
      { token: tokenOf(req), userId: req.principal?.userId ?? '', ...body },
      { deadlineMs: 65_000 },
    );
    res.status(201).json({ status: 'pending', code: out.code, path: out.path });
  });

  return router;
}
