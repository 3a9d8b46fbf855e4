// DealList: the recipient store's deals for the release. Each resend carries the complete set, which
// replaces every earlier deal; none at all (no DealList) is a takedown.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { ErnDeal, ErnVisibility } from './model';
import { RELEASE_REFERENCE } from './references';

export function addDealList(root: XMLBuilder, deals: readonly ErnDeal[], visibility?: ErnVisibility): void {
  if (deals.length === 0) return;
  const list = root.ele('DealList');
  const releaseDeal = list.ele('ReleaseDeal');
  releaseDeal.ele('DealReleaseReference').txt(RELEASE_REFERENCE);
  for (const deal of deals) {
    const terms = releaseDeal.ele('Deal').ele('DealTerms');
    // DealTerms takes either the territories or the ones excluded from the whole world, not both.
    if (deal.excludedTerritories?.length)
      for (const territory of deal.excludedTerritories) terms.ele('ExcludedTerritoryCode').txt(territory);
    else for (const territory of deal.territories) terms.ele('TerritoryCode').txt(territory);
    const period = terms.ele('ValidityPeriod');
    if (deal.startDateTime) {
      period.ele('StartDateTime').txt(deal.startDateTime);
      if (deal.endDateTime) period.ele('EndDateTime').txt(deal.endDateTime);
    } else {
      period.ele('StartDate').txt(deal.startDate ?? '');
      if (deal.endDate) period.ele('EndDate').txt(deal.endDate);
    }
    for (const model of deal.commercialModels) terms.ele('CommercialModelType').txt(model);
    for (const use of deal.useTypes) terms.ele('UseType').txt(use);
    if (deal.preOrder) terms.ele('IsPreOrderDeal').txt('true');
  }
  if (!visibility) return;
  // Shown from the pre-order's start. The clip preview date is left out: ERN 4.3 allows it only in a message
  // without TrackReleases, and ours carry one per track.
  const shown = list.ele('ReleaseVisibility');
  shown.ele('VisibilityReference').txt(visibility.reference);
  shown.ele('ReleaseDisplayStartDateTime').txt(visibility.from);
  shown.ele('CoverArtPreviewStartDateTime').txt(visibility.from);
  shown.ele('FullTrackListingPreviewStartDateTime').txt(visibility.from);
}
