import {
  Baby, Bike, BookOpen, Camera, CookingPot, Disc3, Dumbbell, Flower2, GraduationCap, Guitar, Hammer, HeartHandshake,
  Lamp, Laptop, Music, Package, Palette, PawPrint, Puzzle, Shirt, Sofa, Tag, Truck, Watch, Wrench, type LucideIcon,
} from 'lucide-react';

// The icon names categories carry (services/listing's seed), imported one by one so only these ship.
const icons: Record<string, LucideIcon> = {
  laptop: Laptop,
  shirt: Shirt,
  'book-open': BookOpen,
  sofa: Sofa,
  'cooking-pot': CookingPot,
  'flower-2': Flower2,
  dumbbell: Dumbbell,
  puzzle: Puzzle,
  baby: Baby,
  wrench: Wrench,
  bike: Bike,
  music: Music,
  palette: Palette,
  'paw-print': PawPrint,
  hammer: Hammer,
  'graduation-cap': GraduationCap,
  'heart-handshake': HeartHandshake,
  truck: Truck,
  package: Package,
  'disc-3': Disc3,
  watch: Watch,
  guitar: Guitar,
  camera: Camera,
  lamp: Lamp,
};

/** A category's icon by name; a tag for names this set does not know (a category added later). */
export function CategoryIcon({ name }: { name: string }) {
  const Icon = icons[name] ?? Tag;
  return <Icon aria-hidden="true" size={28} strokeWidth={1.75} />;
}
