package dev.synccontext.sample;

import java.util.Locale;
import java.util.regex.Pattern;

/** Checks of what people type, done on the request thread before anything reaches a board. */
final class Inputs {

    private static final Pattern SYMBOL = Pattern.compile("[A-Z]{1,12}");

    private Inputs() {
    }

    /** The trimmed item text; 400 when it is blank, too long or contains control characters. */
    static String itemText(String text, int maxLength) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw BoardException.badInput("An item needs some text.");
        }
        if (trimmed.length() > maxLength) {
            throw BoardException.badInput("An item is at most " + maxLength + " characters; this one has "
                    + trimmed.length() + ".");
        }
        if (trimmed.chars().anyMatch(Character::isISOControl)) {
            throw BoardException.badInput("An item cannot contain control characters (tabs, line breaks).");
        }
        return trimmed;
    }

    /** The upper-cased symbol; 400 unless it is 1 to 12 letters. */
    static String symbol(String symbol) {
        String normalized = symbol.strip().toUpperCase(Locale.ROOT);
        if (!SYMBOL.matcher(normalized).matches()) {
            throw BoardException.badInput("A symbol is 1 to 12 letters (for example ACME); got '"
                    + abbreviate(symbol) + "'.");
        }
        return normalized;
    }

    private static String abbreviate(String value) {
        String printable = value.replaceAll("\\p{Cntrl}", "?");
        return printable.length() <= 20 ? printable : printable.substring(0, 20) + "…";
    }
}
