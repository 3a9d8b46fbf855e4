// The composition root: the one place that knows every service. Services never import each other.
import type { ServiceModule, ServiceName } from '@omni/platform';
import { billingService } from '@omni/service-billing';
import { catalogService } from '@omni/service-catalog';
import { cmsService } from '@omni/service-cms';
import { deliveryService } from '@omni/service-delivery';
import { finderService } from '@omni/service-finder';
import { gatewayService } from '@omni/service-gateway';
import { identityService } from '@omni/service-identity';
import { royaltiesService } from '@omni/service-royalties';
import { storageService } from '@omni/service-storage';

export const MODULES: Record<ServiceName, ServiceModule> = {
  identity: identityService,
  catalog: catalogService,
  storage: storageService,
  delivery: deliveryService,
  billing: billingService,
  cms: cmsService,
  finder: finderService,
  royalties: royaltiesService,
  gateway: gatewayService,
};
