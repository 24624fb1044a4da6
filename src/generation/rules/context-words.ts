// Words of generator version 5's context rules (context-makers.ts): genres, categories, tags, media
// and document types and pet names, and what a table is about (the domain of the config: a music
// store's genres are music genres, a film rental's categories are film genres), read from the words
// of the config's table names. Lists, not makers: a list may grow only in a new rule set.
import type { Entity } from '../../model/config-types.ts';
import { idWords } from './field-rule.ts';

/** What a config is about, by its tables' words: it chooses which genres and categories are meant. */
export type Domain = 'music' | 'film' | 'book' | 'game' | 'blog' | 'commerce';

const DOMAIN_WORDS: readonly [Domain, readonly string[]][] = [
  ['music', ['track', 'album', 'song', 'artist', 'playlist', 'music', 'band', 'record']],
  ['film', ['film', 'movie', 'actor', 'cinema', 'screening', 'episode', 'show', 'series']],
  ['book', ['book', 'author', 'library', 'publisher', 'loan', 'isbn', 'chapter']],
  ['game', ['game', 'player', 'match', 'tournament']],
  ['blog', ['post', 'article', 'blog', 'comment', 'story']],
];

/** A word without a plural ending (`categories` → category, `boxes` → box, `genres` → genre). */
export function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses') || word.endsWith('xes') || word.endsWith('ches') || word.endsWith('shes')) return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** Singular words of an id (`media_types` → media, type). */
export function singularWords(id: string): string[] {
  return idWords(id).map(singular);
}

const domains = new WeakMap<readonly Entity[], Domain>();

/** The domain of a config: the first of music, film, book, game and blog whose words a table's name holds; else commerce. */
export function domainOf(entities: readonly Entity[]): Domain {
  let domain = domains.get(entities);
  if (domain) return domain;
  const words = new Set(entities.flatMap((entity) => singularWords(entity.id)));
  domain = DOMAIN_WORDS.find(([, list]) => list.some((word) => words.has(word)))?.[0] ?? 'commerce';
  domains.set(entities, domain);
  return domain;
}

export const MUSIC_GENRES = [
  'Rock', 'Pop', 'Jazz', 'Blues', 'Classical', 'Hip Hop', 'R&B', 'Soul', 'Funk', 'Country', 'Folk', 'Reggae', 'Electronic',
  'House', 'Techno', 'Metal', 'Heavy Metal', 'Punk', 'Alternative', 'Indie', 'Latin', 'Bossa Nova', 'Gospel', 'Ambient',
  'Soundtrack', 'World', 'Easy Listening', 'Opera', 'Rock And Roll', 'Grunge', 'Disco', 'Ska', 'Trance', 'Drum and Bass',
];
export const FILM_GENRES = [
  'Action', 'Adventure', 'Animation', 'Children', 'Classics', 'Comedy', 'Crime', 'Documentary', 'Drama', 'Family', 'Fantasy',
  'Foreign', 'Games', 'Horror', 'Music', 'Musical', 'Mystery', 'New', 'Romance', 'Sci-Fi', 'Sports', 'Thriller', 'Travel', 'War', 'Western',
];
export const BOOK_GENRES = [
  'Fiction', 'Non-Fiction', 'Mystery', 'Thriller', 'Romance', 'Science Fiction', 'Fantasy', 'Biography', 'History', 'Poetry',
  'Horror', 'Young Adult', 'Children', 'Self-Help', 'Travel', 'Cookbooks', 'Graphic Novels', 'Philosophy', 'Science', 'Business',
];
export const GAME_GENRES = [
  'Action', 'Adventure', 'Role-Playing', 'Strategy', 'Simulation', 'Sports', 'Racing', 'Puzzle', 'Shooter', 'Platformer',
  'Fighting', 'Survival', 'Horror', 'Sandbox', 'Party', 'Card', 'Board', 'MMO', 'Rhythm', 'Educational',
];
export const PRODUCT_CATEGORIES = [
  'Electronics', 'Computers', 'Books', 'Clothing', 'Shoes', 'Jewelry', 'Home & Kitchen', 'Furniture', 'Garden', 'Tools',
  'Toys', 'Games', 'Sports', 'Outdoors', 'Beauty', 'Health', 'Grocery', 'Pet Supplies', 'Baby', 'Automotive', 'Office Supplies',
  'Music', 'Movies', 'Software', 'Appliances', 'Arts & Crafts', 'Luggage', 'Watches', 'Cameras', 'Phones',
];
export const BLOG_CATEGORIES = [
  'Technology', 'Travel', 'Food', 'Lifestyle', 'Health', 'Fitness', 'Business', 'Finance', 'Education', 'Science', 'Culture',
  'Music', 'Movies', 'Books', 'Sports', 'Politics', 'Design', 'Photography', 'Parenting', 'Career', 'News', 'Opinion', 'Tutorials',
];
export const TAGS = [
  'new', 'featured', 'popular', 'trending', 'sale', 'bestseller', 'limited', 'exclusive', 'urgent', 'important', 'follow-up',
  'vip', 'priority', 'review', 'draft', 'archived', 'beginner', 'advanced', 'tutorial', 'guide', 'how-to', 'tips', 'news',
  'update', 'release', 'bug', 'feature', 'question', 'idea', 'feedback', 'design', 'marketing', 'sales', 'support', 'billing',
  'onboarding', 'security', 'performance', 'mobile', 'web', 'api', 'data', 'travel', 'food', 'health', 'fitness', 'music',
  'family', 'summer', 'winter', 'holiday', 'gift', 'eco-friendly', 'handmade', 'organic', 'local', 'premium', 'budget', 'classic',
];
export const MEDIA_TYPES = [
  'MPEG audio file', 'Protected AAC audio file', 'Protected MPEG-4 video file', 'Purchased AAC audio file', 'AAC audio file',
  'WAV audio file', 'FLAC audio file', 'Ogg Vorbis audio file', 'MPEG-4 video file', 'QuickTime video file', 'Matroska video file',
  'WebM video file', 'JPEG image file', 'PNG image file', 'GIF image file', 'PDF document', 'EPUB e-book', 'Audio CD', 'DVD', 'Blu-ray Disc', 'Vinyl record',
];
export const MIME_TYPES = [
  'application/pdf', 'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'text/plain', 'text/csv', 'text/html', 'application/json',
  'application/zip', 'audio/mpeg', 'audio/wav', 'video/mp4', 'video/webm', 'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/xml', 'image/svg+xml',
];
export const DOCUMENT_TYPES = [
  'Invoice', 'Receipt', 'Contract', 'Purchase Order', 'Quote', 'Credit Note', 'Delivery Note', 'Report', 'Letter', 'Memo',
  'Policy', 'Statement', 'Certificate', 'Passport', 'ID Card', "Driver's License", 'Tax Form', 'Payslip', 'Prescription',
  'Consent Form', 'Lab Result', 'Medical Record', 'Insurance Claim', 'Agreement', 'Proposal', 'Specification', 'Manual', 'Form',
];
export const PET_NAMES = [
  'Bella', 'Max', 'Luna', 'Charlie', 'Lucy', 'Cooper', 'Daisy', 'Milo', 'Bailey', 'Buddy', 'Sadie', 'Rocky', 'Molly', 'Bear',
  'Lola', 'Tucker', 'Maggie', 'Duke', 'Sophie', 'Oliver', 'Chloe', 'Leo', 'Stella', 'Zeus', 'Penny', 'Bentley', 'Coco', 'Toby',
  'Rosie', 'Jack', 'Ruby', 'Oscar', 'Nala', 'Simba', 'Loki', 'Gracie', 'Winston', 'Pepper', 'Murphy', 'Ginger', 'Teddy', 'Biscuit',
  'Shadow', 'Smokey', 'Tiger', 'Oreo', 'Mittens', 'Whiskers', 'Felix', 'Cleo', 'Misty', 'Ziggy', 'Gizmo', 'Peanut', 'Hazel',
  'Rex', 'Benny', 'Marley', 'Roxy', 'Scout', 'Willow', 'Maple', 'Pumpkin', 'Mochi', 'Honey', 'Olive', 'Kiki', 'Sunny', 'Buster', 'Bruno',
];

export const SPECIES = ['Dog', 'Cat', 'Rabbit', 'Bird', 'Guinea Pig', 'Hamster', 'Ferret', 'Reptile', 'Horse', 'Fish'];
/** How common each species is at a veterinary clinic (same order). */
export const SPECIES_WEIGHTS = [45, 35, 5, 4, 3, 2, 2, 2, 1, 1];

/** Genres of a domain. */
export function genresOf(domain: Domain): readonly string[] {
  return domain === 'film' ? FILM_GENRES : domain === 'book' ? BOOK_GENRES : domain === 'game' ? GAME_GENRES : MUSIC_GENRES;
}

/** Categories of a domain: a film rental's are film genres, a music store's music genres, a blog's topics, else product departments. */
export function categoriesOf(domain: Domain): readonly string[] {
  switch (domain) {
    case 'film':
      return FILM_GENRES;
    case 'music':
      return MUSIC_GENRES;
    case 'book':
      return BOOK_GENRES;
    case 'game':
      return GAME_GENRES;
    case 'blog':
      return BLOG_CATEGORIES;
    case 'commerce':
      return PRODUCT_CATEGORIES;
  }
}

/** Words before an organisation's kind in its name: places and qualities (`Riverside`, `Summit`). */
export const NAME_PREFIXES = [
  'Riverside', 'Oakwood', 'Northgate', 'Summit', 'Bluewater', 'Cedar', 'Maple', 'Harbor', 'Pinecrest', 'Silverline', 'Redstone',
  'Brightway', 'Evergreen', 'Lakeside', 'Westfield', 'Eastgate', 'Highland', 'Meadow', 'Stonebridge', 'Crescent', 'Sunrise',
  'Horizon', 'Pioneer', 'Atlas', 'Keystone', 'Liberty', 'Granite', 'Willow', 'Aspen', 'Birch', 'Coastal', 'Prairie', 'Valley',
  'Parkside', 'Hillcrest', 'Fairview', 'Greenfield', 'Clearwater', 'Northwind', 'Ironwood', 'Bayview', 'Union', 'Central',
  'Metro', 'Heritage', 'Legacy', 'Premier', 'Southside', 'Golden', 'Sterling',
];

/** Endings of a company's name (`Hughes Group`, `Summit Labs`). */
export const COMPANY_ENDINGS = [
  'Inc', 'LLC', 'Ltd', 'Group', 'Partners', 'Holdings', 'Labs', 'Systems', 'Solutions', 'Industries', 'Technologies', 'Enterprises',
  'Co', 'Corporation', 'Associates', 'Ventures', 'Works', 'Supply', 'Services', 'Trading',
];
