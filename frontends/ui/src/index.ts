// Public surface of the Omni UI kit. The package has no side effects (see package.json), so a
// bundle only carries the components it imports.

export type {
  AuthSession,
  SessionProfile,
  SessionState,
  SessionStatus,
  SessionUser,
} from '@omni/ui/session';
export {
  type AuthProviders,
  type Credentials,
  consumeMagicLink,
  displayNameOf,
  fetchAuthProviders,
  googleSignInUrl,
  redeemHandoff,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  sendMagicLink,
  signInWithPassword,
  signUp,
  updateDisplayName,
  verifyEmail,
} from './auth-api';
export {
  Accordion,
  AccordionContent,
  AccordionItem,
  AccordionTrigger,
} from './components/accordion';
export {
  APP_NAV_LINKS,
  AppHeader,
  type AppNavLink,
  isCurrentAppLink,
} from './components/app-header';
export { Badge, type BadgeProps, badgeVariants } from './components/badge';
export { Button, type ButtonProps } from './components/button';
export { buttonVariants } from './components/button-variants';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { Checkbox } from './components/checkbox';
export { ComingSoonPage } from './components/coming-soon-page';
export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
} from './components/dialog';
export { FormField, type FormFieldProps } from './components/form-field';
export { Input } from './components/input';
export { Label } from './components/label';
export { OmniLogo } from './components/omni-logo';
export { Progress } from './components/progress';
export { ReviewFindings } from './components/review-findings';
export {
  Select,
  SelectContent,
  SelectGroup,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from './components/select';
export { Spinner } from './components/spinner';
export { StatTile } from './components/stat-tile';
export { Switch } from './components/switch';
export {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from './components/table';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './components/tabs';
export { Textarea } from './components/textarea';
export { Toaster, toast } from './components/toaster';
export { refetchAfterCheckout } from './lib/after-checkout';
export type { ApiFetchOptions } from './lib/api';
export { ApiError, apiFetch, apiResponse, serverMessage } from './lib/api';
export {
  type BillingProduct,
  createCheckout,
  fetchPriceIds,
  fetchSubscription,
  openPortalSession,
  type PlanKey,
  type SubscriptionResponse,
} from './lib/billing-api';
export { cn } from './lib/cn';
export { formatAgo, formatPublished, formatTable } from './lib/dates';
export { isInFrame, openPendingTab, type PendingTab } from './lib/new-tab';
export { type PageMeta, PageMetaCollector } from './lib/page-meta-collector';
export {
  type ByteProgress,
  contentTypeOf,
  putToSignedUrl,
  type SignedTarget,
  wantsBearer,
} from './lib/put-to-signed-url';
export { createQueryClient, QueryProvider } from './lib/query';
export { saveDownload } from './lib/save-download';
export { isSigningOut, signOutWithToast } from './lib/sign-out';
export { APP_NAME, documentTitle, useDocumentTitle } from './lib/use-document-title';
export { usePageMeta } from './lib/use-page-meta';
export { prefersReducedMotion, usePrefersReducedMotion } from './lib/use-reduced-motion';
export { useSession } from './use-session';
// Heavy, decorative pieces: import these by their own paths ('@omni/ui/particles', '@omni/ui/confetti')
// behind a lazy boundary so they stay out of a page's first chunk.
