import { useCallback, useEffect, useState } from 'react';
import { readSidebarOpen, writeSidebarOpen } from '../lib/sidebar-state';
import { useIsMobile } from './use-is-mobile';

export interface SidebarControls {
  isMobile: boolean;
  /** Desktop: expanded (16rem) or collapsed to icons (3rem); kept in the cookie. */
  open: boolean;
  /** Phones: the sheet is showing. Not kept: a phone starts with the sheet closed. */
  sheetOpen: boolean;
  setSheetOpen: (open: boolean) => void;
  toggle: () => void;
}

/** The sidebar's state and its Ctrl/Cmd+B shortcut (spec: Admin layout, §9). */
export function useSidebar(): SidebarControls {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState(readSidebarOpen);
  const [sheetOpen, setSheetOpen] = useState(false);

  const toggle = useCallback(() => {
    if (isMobile) {
      setSheetOpen((shown) => !shown);
      return;
    }
    setOpen((shown) => {
      writeSidebarOpen(!shown);
      return !shown;
    });
  }, [isMobile]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  return { isMobile, open, sheetOpen, setSheetOpen, toggle };
}
