// The package ships no types; this is the part of its API the stemmer uses.
declare module 'snowball-stemmers' {
  interface SnowballStemmer {
    stem(word: string): string;
  }
  const snowball: {
    newStemmer(algorithm: string): SnowballStemmer;
    algorithms(): string[];
  };
  export = snowball;
}
